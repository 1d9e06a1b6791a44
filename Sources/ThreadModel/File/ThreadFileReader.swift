import Foundation

/// Builds a thread from the bytes of a thread file, skipping and reporting what is wrong.
struct ThreadFileReader: Sendable {
    init() {}

    /// Reads every complete line; an unterminated last line is left pending, not read.
    func read(_ bytes: [UInt8]) -> ThreadFile {
        var builder = Builder()
        var lineNumber = 0
        let end = Self.forEachCompleteLine(in: bytes) { line in
            lineNumber += 1
            guard line.count <= ThreadFileLimits.lineBytes else {
                return builder.problem(lineNumber, ThreadFileLimits.overlongLineMessage(bytes: line.count))
            }
            builder.take(line, line: lineNumber)
        }
        return builder.finish(lineCount: lineNumber, pendingBytes: bytes.count - end)
    }

    /// Reads a file from its position (the start) in chunks, never holding more than a line's
    /// limit of it beyond the thread; returns a follower positioned after its last complete line.
    func read(from descriptor: FileDescriptor, chunkSize: Int = 1 << 20) throws -> (file: ThreadFile, follower: ThreadFileFollower) {
        var builder = Builder()
        var lineNumber = 0
        let end = try LineScanner.scan(descriptor, chunkSize: chunkSize) { line, _ in
            lineNumber += 1
            switch line {
            case .complete(let bytes): builder.take(ArraySlice(bytes), line: lineNumber)
            case .overlong(let length): builder.problem(lineNumber, ThreadFileLimits.overlongLineMessage(bytes: length))
            }
        }
        let file = builder.finish(lineCount: lineNumber, pendingBytes: end.pendingBytes)
        let follower = ThreadFileFollower(offset: end.endOfCompleteLines, lineCount: lineNumber,
                                          passingOver: end.pendingIsOverlong ? end.pendingBytes : 0)
        return (file, follower)
    }

    /// Calls `body` with each newline-terminated line (without its newline), blank lines
    /// included so that line numbers count them; returns the offset after the last newline.
    static func forEachCompleteLine(in bytes: [UInt8], _ body: (ArraySlice<UInt8>) -> Void) -> Int {
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            while let end = buffer[start...].firstIndex(of: 0x0A) {
                body(bytes[start..<end])
                start = end + 1
            }
        }
        return start
    }

    /// Collects records into a thread, applying the file's rules (unique ids and handles).
    private struct Builder {
        var header: ThreadHeader?
        var users: [String: User] = [:]
        var userIDsByHandle: [String: String] = [:]
        var comments: [Comment] = []
        var commentIDs: Set<String> = []
        var authorLines: [(author: String, line: Int)] = []
        /// Edits and deletions, in file order, applied once every comment is read.
        var changes: [(change: CommentChange, line: Int)] = []
        /// Reactions added and taken back, in file order, counted once every comment is read.
        var reactions: [(change: ReactionChange, line: Int)] = []
        var problems: [ThreadFileProblem] = []
        var recordCount = 0
        let decoder = ThreadRecordDecoder()

        /// Decodes one line and adds its record, or its problem.
        mutating func take(_ line: ArraySlice<UInt8>, line number: Int) {
            switch decoder.decode(line) {
            case .record(let record): add(record, line: number)
            case .ignored: break
            case .malformed(let message): problem(number, message)
            }
        }

        mutating func add(_ record: ThreadRecord, line: Int) {
            switch record {
            case .thread(let value):
                guard header == nil else { return problem(line, "a second thread record, ignored") }
                header = value
            case .user(let user):
                let key = user.handle.lowercased()
                if let owner = userIDsByHandle[key], owner != user.id {
                    return problem(line, "handle \"\(user.handle)\" already belongs to user \(owner), skipped")
                }
                if let previous = users[user.id] { userIDsByHandle[previous.handle.lowercased()] = nil }
                users[user.id] = user
                userIDsByHandle[key] = user.id
            case .comment(let comment):
                guard commentIDs.insert(comment.id).inserted else {
                    return problem(line, "comment id \"\(comment.id)\" used before, skipped")
                }
                comments.append(comment)
                authorLines.append((comment.author, line))
            case .change(let change):
                changes.append((change, line))
            case .reaction(let reaction):
                reactions.append((reaction, line))
            }
            recordCount += 1
        }

        mutating func problem(_ line: Int, _ message: String) {
            problems.append(ThreadFileProblem(line: line, message: message))
        }

        mutating func finish(lineCount: Int, pendingBytes: Int) -> ThreadFile {
            // Users may come after the comments that name them, so authors are checked at the end.
            for (author, line) in authorLines where users[author] == nil {
                problem(line, "comment by unknown user \"\(author)\" (no user record with that id)")
            }
            if header == nil {
                problems.append(ThreadFileProblem(line: 1, message: "no thread record (the title and post are missing)"))
            }
            applyChanges()
            let tally = countReactions()
            problems.sort { $0.line < $1.line }
            let head = header ?? ThreadHeader(id: "", title: "", author: "", created: Date(timeIntervalSince1970: 0), body: "")
            var thread = CommentThread(
                id: head.id, title: head.title, author: head.author, created: head.created, body: head.body,
                users: Array(users.values), comments: comments)
            thread.reactions = tally
            return ThreadFile(thread: thread, problems: problems, recordCount: recordCount, lineCount: lineCount, pendingBytes: pendingBytes)
        }

        /// Each comment as its author's edits and deletion leave it; a change of a comment the
        /// file does not hold, or that does not count (`CommentChange.apply`), is reported and ignored.
        mutating func applyChanges() {
            guard !changes.isEmpty else { return }
            var byComment: [String: [(change: CommentChange, line: Int)]] = [:]
            for entry in changes { byComment[entry.change.comment, default: []].append(entry) }
            for position in comments.indices {
                // The first comment with an id is the one kept (a later one was skipped).
                guard let found = byComment.removeValue(forKey: comments[position].id) else { continue }
                let applied = CommentChange.apply(found, to: comments[position], readOnLine: authorLines[position].line)
                comments[position] = applied.comment
                problems += applied.problems
            }
            for (change, line) in byComment.values.joined() { problems.append(CommentChange.unknownCommentProblem(change, line: line)) }
        }

        /// The reactions the records leave (`ReactionTally.counting`), and their problems.
        mutating func countReactions() -> ReactionTally {
            guard !reactions.isEmpty else { return ReactionTally() }
            let lines = Dictionary(zip(comments.map(\.id), authorLines.map(\.line)), uniquingKeysWith: min)
            let known = users
            let counted = ReactionTally.counting(reactions, commentLines: lines, deleted: Set(comments.filter(\.isDeleted).map(\.id)),
                                                 isKnownUser: { known[$0] != nil })
            problems += counted.problems
            return counted.tally
        }
    }
}
