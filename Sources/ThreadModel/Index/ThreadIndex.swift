/// A thread file indexed by line offsets: opens at once, decodes comments only when shown.
///
/// Per comment the index keeps only an offset, a length and a line number (16 bytes), so a
/// million comments cost about 16 MB and open in one sequential read. Comment ids are not
/// deduplicated here (that would mean decoding every line): `comment(at:)` gives each comment line
/// as it is, and `check` (`ThreadFile.read`) still reports ids used twice.
/// Comments by users the file does not know are also left to `check`.
public final class ThreadIndex {
    /// How many decoded comments are kept: a few screens' worth.
    static let cacheLimit = 256

    /// The thread record, if the file has one.
    public let header: ThreadHeader?
    /// Every user, by the file's rules (latest record per id; a handle owned by another id is skipped with a problem).
    public let users: [User]
    /// Problems found while indexing (the thread and user lines, lines of unknown shape, torn lines);
    /// problems inside comment lines far from the screen are reported when those comments are decoded.
    public let problems: [ThreadFileProblem]
    /// A follower positioned after the last complete line (for `ThreadFileTail`).
    public let follower: ThreadFileFollower

    let path: String
    let descriptor: FileDescriptor
    let commentOffsets: [Int]
    let commentLengths: [UInt32]
    let commentLines: [UInt32]
    /// The file's edits and deletions by comment id, applied as each comment is decoded.
    /// An edit's body is not held here: it is read back (`editLines`) when its comment is decoded.
    public let changes: [String: [(change: CommentChange, line: Int)]]
    let editLines: [Int: (offset: Int, length: Int)]
    /// The reactions the file's records leave, counted while indexing (`ScanReactions`: those
    /// before their comment's line do not count); the records themselves are not kept
    /// (`forEachReactionRecord` reads them again for `render`).
    public let reactions: ReactionTally
    /// The ids of `changes` as bytes: Ctrl-S leaves their lines undecided (shown with other text).
    let changedIDBytes: Set<[UInt8]>
    var cache = DecodedCommentCache(limit: ThreadIndex.cacheLimit)
    /// Positions found to hold a line that does not decode (shown as its problem, not counted as
    /// a comment); only those decoded so far are known, as no line is decoded before it is shown.
    public private(set) var unreadablePositions: Set<Int> = []
    /// Edits and deletions found not to count (by another author, …) by line, among the
    /// comments decoded so far (`render` decodes them all).
    public private(set) var changeProblems: [Int: ThreadFileProblem] = [:]
    private let decoder = ThreadRecordDecoder()
    /// The comment lines' ids as hashes: made by the scan for a file with reactions, else on
    /// the first live reaction (`containsReactionTarget`).
    private var commentIDHashes: CommentIDHashes?

    private init(path: String, descriptor: FileDescriptor, scan: ThreadIndexScan) {
        self.path = path
        self.descriptor = descriptor
        header = scan.header
        users = scan.users.sortedUsers
        problems = scan.problems
        follower = ThreadFileFollower(offset: scan.endOfCompleteLines, lineCount: scan.lineCount,
                                      passingOver: scan.pendingOverlongBytes)
        commentOffsets = scan.commentOffsets
        commentLengths = scan.commentLengths
        commentLines = scan.commentLines
        changes = scan.changes
        editLines = scan.editLines
        reactions = scan.reactions.tally
        changedIDBytes = Set(scan.changes.keys.map { Array($0.utf8) })
        commentIDHashes = scan.commentIDs
    }

    deinit { descriptor.close() }

    /// Indexes the file at `path` (chunked `read()`, never `mmap`: mapped pages count as resident memory).
    public static func open(path: String) throws -> ThreadIndex {
        try open(path: path, chunkSize: ThreadIndexScan.chunkSize)
    }

    /// Indexes with reads of `chunkSize` bytes (tests use tiny ones).
    static func open(path: String, chunkSize: Int) throws -> ThreadIndex {
        let descriptor = try FileDescriptor.openForReading(path)
        var scan = ThreadIndexScan()
        do {
            try scan.run(descriptor, chunkSize: chunkSize)
        } catch {
            descriptor.close()
            throw error
        }
        return ThreadIndex(path: path, descriptor: descriptor, scan: scan)
    }

    /// Number of comment lines indexed (comments are decoded on demand).
    public var commentCount: Int { commentOffsets.count }

    /// The line number of a comment's line.
    public func lineNumber(ofComment index: Int) -> Int { Int(commentLines[index]) }

    /// The comment at a position (0 = oldest), decoded on demand and cached (a small bounded cache);
    /// a line that fails to decode gives its problem (with its line number) instead.
    public func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        precondition(commentOffsets.indices.contains(index), "comment \(index) of \(commentCount)")
        if let cached = cache.value(for: index) { return cached }
        let result = decodeComment(at: index)
        cache.insert(result, for: index)
        if case .failure = result { unreadablePositions.insert(index) }
        return result
    }

    /// The id of the comment at a position: read from the line's first bytes when it is
    /// canonical (one short `pread`, no decoding), else from the decoded comment.
    public func commentID(at index: Int) -> String? {
        let prefix = ThreadIndexScan.commentPrefix + Array(#""id":""#.utf8)
        let length = min(Int(commentLengths[index]), prefix.count + Self.idBytesRead)
        if let start = try? descriptor.read(at: commentOffsets[index], count: length), start.starts(with: prefix),
           let close = start[prefix.count...].firstIndex(of: UInt8(ascii: "\"")),
           !start[prefix.count..<close].contains(UInt8(ascii: "\\")) {
            return String(decoding: start[prefix.count..<close], as: UTF8.self)
        }
        return try? comment(at: index).get().id
    }

    /// How much of an id `commentID(at:)` reads past the prefix (a longer one is decoded).
    private static let idBytesRead = 128

    /// Whether a comment line has this id, newest first (a comment just sent is near the end).
    ///
    /// A canonical line is told by its first bytes alone (its id follows the fixed prefix), so
    /// this reads a few dozen bytes per comment and decodes only lines of another shape.
    public func containsComment(id: String) -> Bool {
        if let commentIDHashes { return commentIDHashes.contains(id) }
        let expected = ThreadIndexScan.commentPrefix + Array(#""id":"\#(id)""#.utf8)
        for index in stride(from: commentCount - 1, through: 0, by: -1) {
            let length = min(Int(commentLengths[index]), expected.count)
            guard let start = try? descriptor.read(at: commentOffsets[index], count: length) else { continue }
            if start == expected { return true }
            if start.starts(with: ThreadIndexScan.commentPrefix + Array(#""id":""#.utf8)) { continue }
            if case .success(let comment) = self.comment(at: index), comment.id == id { return true }
        }
        return false
    }

    /// Whether a comment line has this id, for a reaction naming it: answered from the ids'
    /// hashes, read once on the first call when the scan met no reaction (a writer appending
    /// reactions to ever new ids costs one lookup each, not a read of the file each).
    public func containsReactionTarget(id: String) -> Bool {
        if commentIDHashes == nil {
            commentIDHashes = CommentIDHashes.reading(descriptor, offsets: commentOffsets, lengths: commentLengths)
        }
        return commentIDHashes?.contains(id) == true
    }

    /// Reads one comment line back from the file (one `pread`) and decodes it.
    private func decodeComment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        let line = lineNumber(ofComment: index)
        let length = Int(commentLengths[index])
        let bytes: [UInt8]
        do {
            bytes = try descriptor.read(at: commentOffsets[index], count: length)
        } catch {
            return .failure(ThreadFileProblem(line: line, message: "could not read the line again: \(error)"))
        }
        guard bytes.count == length else {
            return .failure(ThreadFileProblem(line: line, message: "the file shrank since it was opened; reopen it"))
        }
        switch decoder.decode(bytes[...]) {
        case .record(.comment(let comment)):
            // Only changes after the comment's line count (`check` reports the others).
            guard let found = changes[comment.id] else { return .success(comment) }
            var applied = CommentChange.apply(found, to: comment, readOnLine: line)
            for problem in applied.problems { changeProblems[problem.line] = problem }
            // The last edit that counts, if the comment was not deleted after it, gives the body.
            let refused = Set(applied.problems.map(\.line))
            if !applied.comment.isDeleted, let last = found.last(where: { !refused.contains($0.line) }),
               case .edit = last.change.kind {
                applied.comment.body = editBody(onLine: last.line) ?? applied.comment.body
            }
            return .success(applied.comment)
        case .malformed(let message): return .failure(ThreadFileProblem(line: line, message: message))
        case .record, .ignored:
            // Only if the file was changed in place since it was indexed.
            return .failure(ThreadFileProblem(line: line, message: "no longer a comment record; reopen the file"))
        }
    }
}

extension ThreadIndex {
    /// The body of the edit record on `line`, read back from the file; nil if it no longer reads.
    func editBody(onLine line: Int) -> String? {
        guard let place = editLines[line], let bytes = try? descriptor.read(at: place.offset, count: place.length),
              bytes.count == place.length, case .record(.change(let change)) = decoder.decode(bytes[...]),
              case .edit(let body) = change.kind else { return nil }
        return body
    }
}

/// The last few decoded comments by position, oldest evicted first.
struct DecodedCommentCache {
    let limit: Int
    private(set) var entries: [Int: Result<Comment, ThreadFileProblem>] = [:]
    /// Positions in insertion order, as a ring: `order[next]` is the next to evict once full.
    private(set) var order: [Int] = []
    private var next = 0

    init(limit: Int) { self.limit = limit }

    func value(for index: Int) -> Result<Comment, ThreadFileProblem>? { entries[index] }

    mutating func insert(_ value: Result<Comment, ThreadFileProblem>, for index: Int) {
        if order.count < limit {
            order.append(index)
        } else {
            entries[order[next]] = nil
            order[next] = index
            next = (next + 1) % limit
        }
        entries[index] = value
    }
}
