import Foundation

/// Comments kept in a private unnamed file instead of memory, decoded again on demand: the
/// history a reader pages through in a big room, so memory holds a window, not the room.
///
/// Pages arrive older than everything held (`prepend`), so slots are numbered newest first and
/// the file only ever grows at its end. Memory per comment is its slot (12 bytes) plus a small
/// cache of decoded comments. If the file cannot be made or written (a full disk), comments stay
/// in memory: nothing is lost, only the bound.
public final class SpilledComments {
    /// Comments decoded and kept, besides those on screen in the caller's own caches.
    static let cacheLimit = 512

    /// Where each comment's line is, newest first (slot 0 is the newest).
    private var offsets: [Int] = []
    private var lengths: [UInt32] = []
    /// Comments the file did not take, by slot.
    private var unwritten: [Int: Comment] = [:]
    /// Slots whose comment is deleted: a `comment` record has no such field (a file says it with a
    /// `delete` record after the line), so the flag is kept here and set again on reading back.
    private var deletedSlots: Set<Int> = []
    private var file: FileDescriptor?
    private var end = 0
    private var cache = DecodedCommentCache(limit: SpilledComments.cacheLimit)
    private let encoder = ThreadRecordEncoder()
    private let decoder = ThreadRecordDecoder()

    /// An empty store whose file is made in `directory` (the system's temporary directory).
    public init(directory: String = NSTemporaryDirectory()) {
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        file = try? FileDescriptor.openUnnamed(in: folder.isEmpty ? "/tmp" : folder)
    }

    deinit { file?.close() }

    /// Comments held.
    public var count: Int { offsets.count }

    /// Comments held in memory rather than in the file (0 unless writing failed).
    public var countInMemory: Int { unwritten.count }

    /// Adds comments older than all held, oldest first.
    public func prepend(_ comments: [Comment]) {
        var bytes: [UInt8] = []
        var spans: [(offset: Int, length: Int)] = []
        for comment in comments.reversed() {
            let start = bytes.count
            encoder.append(.comment(comment), to: &bytes)
            spans.append((end + start, bytes.count - start))
        }
        let written = file.map { file in (try? file.write(bytes, at: end)) != nil } ?? false
        for (comment, span) in zip(comments.reversed(), spans) {
            if !written { unwritten[offsets.count] = comment }
            if comment.isDeleted { deletedSlots.insert(offsets.count) }
            offsets.append(span.offset)
            lengths.append(UInt32(span.length))
        }
        if written { end += bytes.count }
    }

    /// The comment at a position, 0 being the oldest held.
    public func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
        precondition(index >= 0 && index < count, "comment \(index) of \(count)")
        let slot = count - 1 - index
        if let kept = unwritten[slot] { return .success(kept) }
        if let cached = cache.value(for: slot) { return cached }
        let result = read(slot: slot)
        cache.insert(result, for: slot)
        return result
    }

    private func read(slot: Int) -> Result<Comment, ThreadFileProblem> {
        let length = Int(lengths[slot])
        // The encoder ends each line with "\n": the decoder takes it without.
        guard let file, let bytes = try? file.read(at: offsets[slot], count: length), bytes.count == length,
              case .record(.comment(var comment)) = decoder.decode(bytes.dropLast())
        else {
            return .failure(ThreadFileProblem(line: 0, message: "an older comment could not be read back from the temporary file"))
        }
        comment.isDeleted = deletedSlots.contains(slot)
        return .success(comment)
    }

    /// Checks that every slot has a place: in the file, or in memory.
    public func _checkInvariants() {
        precondition(offsets.count == lengths.count, "a slot without its length")
        for slot in offsets.indices where unwritten[slot] == nil {
            precondition(offsets[slot] + Int(lengths[slot]) <= end, "slot \(slot) ends past the written end")
        }
    }
}
