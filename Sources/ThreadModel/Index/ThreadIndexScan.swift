/// The one pass over a thread file that builds a `ThreadIndex`: where each comment line is,
/// plus the thread and user records, decoded as they come.
///
/// Reads through `LineScanner` (chunks into one buffer bounded by the line limit; a longer line
/// is skipped and reported). A canonical comment line is recognised by its prefix
/// and closing brace without decoding it; every other non-empty line is decoded (rare).
struct ThreadIndexScan {
    /// Bytes per `read()`: large enough that system calls cost nothing, small enough to stay cheap.
    static let chunkSize = 4 << 20
    /// A guess at the smallest typical comment line, to reserve the per-comment arrays once;
    /// reserved pages that are never written are never resident.
    static let estimatedBytesPerComment = 96

    /// How every canonical comment line begins (`ThreadRecordEncoder`'s fixed key order).
    static let commentPrefix = Array(#"{"type":"comment","#.utf8)

    /// File offset of each comment line.
    private(set) var commentOffsets: [Int] = []
    /// Length of each comment line, without its newline.
    private(set) var commentLengths: [UInt32] = []
    /// Line number (from 1) of each comment line.
    private(set) var commentLines: [UInt32] = []
    private(set) var header: ThreadHeader?
    /// Edits and deletions by the id of the comment they change, in file order, with their
    /// line numbers (decoded as they come: rare, and never in the canonical comment shape).
    /// An edit's body is not kept (`.edit(body: "")`): `editLines` says where to read it.
    private(set) var changes: [String: [(change: CommentChange, line: Int)]] = [:]
    /// Where each edit record is, by its line number: its body is read back when its comment is shown.
    private(set) var editLines: [Int: (offset: Int, length: Int)] = [:]
    /// The reactions counted as the records come (none kept: a hostile file has a million).
    private(set) var reactions = ScanReactions()
    /// The ids of the comment lines so far, from the first reaction on (the lines before it are
    /// read back once then): whether a reaction's comment came before it, and later
    /// `ThreadIndex.containsComment`. Nil for a file without reactions, which pays nothing for it.
    private(set) var commentIDs: CommentIDHashes?
    /// The file being read, for reading back the comment lines before the first reaction.
    private var reading: FileDescriptor?
    private(set) var users = ThreadUserTable()
    private(set) var problems: [ThreadFileProblem] = []
    /// Complete (newline-terminated) lines, blank ones included.
    private(set) var lineCount = 0
    /// The offset just after the last newline: where the pending tail, if any, starts.
    private(set) var endOfCompleteLines = 0
    /// The pending tail's length when it is over the line limit (passed over, not kept); else 0.
    private(set) var pendingOverlongBytes = 0
    private let decoder = ThreadRecordDecoder()
    /// `commentPrefix` held here: reading a static `let` per line costs a `swift_once` check each time.
    private let canonicalCommentPrefix = ThreadIndexScan.commentPrefix

    /// Indexes everything readable from `descriptor`, from its current position (the start);
    /// tests pass tiny chunks so that lines straddle chunks and outgrow the buffer.
    mutating func run(_ descriptor: FileDescriptor, chunkSize: Int = ThreadIndexScan.chunkSize,
                      lineLimit: Int = ThreadFileLimits.lineBytes) throws {
        let estimate = try descriptor.size() / Self.estimatedBytesPerComment + 16
        commentOffsets.reserveCapacity(estimate)
        commentLengths.reserveCapacity(estimate)
        commentLines.reserveCapacity(estimate)
        reading = descriptor
        defer { reading = nil }

        let end = try LineScanner.scan(descriptor, chunkSize: chunkSize, lineLimit: lineLimit) { line, offset in
            lineCount += 1
            switch line {
            case .complete(let bytes): indexLine(bytes, at: offset)
            case .overlong(let length): problem(ThreadFileLimits.overlongLineMessage(bytes: length))
            }
        }
        endOfCompleteLines = end.endOfCompleteLines
        pendingOverlongBytes = end.pendingIsOverlong ? end.pendingBytes : 0
        if header == nil {
            problems.insert(ThreadFileProblem(line: 1, message: "no thread record (the title and post are missing)"), at: 0)
        }
    }

    /// Whether a line is a comment in the canonical shape, so it can be indexed without decoding.
    private func isCanonicalComment(_ line: UnsafeRawBufferPointer) -> Bool {
        Self.isCanonicalComment(line, prefix: canonicalCommentPrefix)
    }

    /// Whether a line starts with `prefix` (`commentPrefix`, passed in: see `canonicalCommentPrefix`) and ends in `}`.
    @inline(__always)
    static func isCanonicalComment(_ line: UnsafeRawBufferPointer, prefix: [UInt8]) -> Bool {
        guard line.count > prefix.count, line[line.count - 1] == UInt8(ascii: "}") else { return false }
        for index in 0..<prefix.count where line[index] != prefix[index] { return false }
        return true
    }

    private mutating func indexLine(_ line: UnsafeRawBufferPointer, at offset: Int) {
        if line.isEmpty { return }
        if isCanonicalComment(line) {
            appendComment(at: offset, length: line.count)
            if commentIDs != nil {
                if let plain = ScanReactions.plainID(line, after: canonicalCommentPrefix.count) {
                    commentIDs?.insert(plain)
                } else if let id = decodedID(line) {
                    commentIDs?.insert(id.utf8)
                }
            }
            return
        }
        switch decoder.decode(ArraySlice(line)) {
        case .record(.comment(let comment)):
            appendComment(at: offset, length: line.count)
            commentIDs?.insert(comment.id.utf8)
        case .record(.thread(let value)):
            guard header == nil else { return problem("a second thread record, ignored") }
            header = value
        case .record(.user(let user)): add(user)
        case .record(.change(var change)):
            // An edit's body waits in the file: a file of many large edits costs no memory for them.
            if case .edit = change.kind {
                change.kind = .edit(body: "")
                editLines[lineCount] = (offset, line.count)
            }
            changes[change.comment, default: []].append((change, lineCount))
        case .record(.reaction(let reaction)):
            if commentIDs == nil, let reading {
                commentIDs = CommentIDHashes.reading(reading, offsets: commentOffsets, lengths: commentLengths)
            }
            // Only after its comment, as readers count them; else dropped now, not kept.
            if commentIDs?.contains(reaction.comment) == true { reactions.take(reaction) }
        case .ignored: break
        case .malformed(let message): problem(message)
        }
    }

    /// The id of a comment line, decoded.
    private func decodedID(_ line: UnsafeRawBufferPointer) -> String? {
        guard case .record(.comment(let comment)) = decoder.decode(ArraySlice(line)) else { return nil }
        return comment.id
    }

    private mutating func appendComment(at offset: Int, length: Int) {
        commentOffsets.append(offset)
        commentLengths.append(UInt32(length))
        commentLines.append(UInt32(lineCount))
    }

    /// The file's rule for users (`ThreadUserTable`).
    private mutating func add(_ user: User) {
        if let skipped = users.add(user) { problem(skipped) }
    }

    private mutating func problem(_ message: String) {
        problems.append(ThreadFileProblem(line: lineCount, message: message))
    }
}
