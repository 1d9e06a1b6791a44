import Foundation

/// Builds a thread from the bytes of a thread file, skipping and reporting what is wrong.
struct ThreadFileReader: Sendable {
    init() {}

    /// Reads every complete line; an unterminated last line is left pending, not read.
    func read(_ bytes: [UInt8]) -> ThreadFile {
        var builder = Builder()
        let decoder = ThreadRecordDecoder()
        var lineNumber = 0
        let end = Self.forEachCompleteLine(in: bytes) { line in
            lineNumber += 1
            switch decoder.decode(line) {
            case .record(let record): builder.add(record, line: lineNumber)
            case .ignored: break
            case .malformed(let message): builder.problems.append(ThreadFileProblem(line: lineNumber, message: message))
            }
        }
        let start = end
        return builder.finish(lineCount: lineNumber, pendingBytes: bytes.count - start)
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
        var problems: [ThreadFileProblem] = []
        var recordCount = 0

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
            problems.sort { $0.line < $1.line }
            let head = header ?? ThreadHeader(id: "", title: "", author: "", created: Date(timeIntervalSince1970: 0), body: "")
            let thread = CommentThread(
                id: head.id, title: head.title, author: head.author, created: head.created, body: head.body,
                users: Array(users.values), comments: comments)
            return ThreadFile(thread: thread, problems: problems, recordCount: recordCount, lineCount: lineCount, pendingBytes: pendingBytes)
        }
    }
}
