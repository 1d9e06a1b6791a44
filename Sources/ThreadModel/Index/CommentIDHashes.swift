/// The ids of a file's comment lines as hashes, so that "is there a comment with this id?" is
/// answered at once, whether a reaction's comment came before it while indexing
/// (`ThreadIndexScan`) or a live reaction names a comment (`ThreadIndex.containsComment`).
///
/// The hash is Swift's `Hasher`, seeded afresh in every process: a hostile file cannot be made
/// to collide, and by chance two ids share a hash about once in 2⁶⁴ pairs, so a match is taken
/// as the comment (reading the line back to confirm would cost a read per reaction). Built only
/// for a file that has reactions (8 to 16 bytes a comment, where the index keeps 16).
struct CommentIDHashes {
    private var hashes: Set<Int> = []

    /// Comment lines read back to fill the set, per read.
    static let chunkSize = 4 << 20

    /// Adds an id, given as its UTF-8 bytes.
    mutating func insert<Bytes: Sequence>(_ id: Bytes) where Bytes.Element == UInt8 {
        hashes.insert(Self.hash(id))
    }

    /// Whether some comment line had this id.
    func contains(_ id: String) -> Bool { hashes.contains(Self.hash(id.utf8)) }

    private static func hash<Bytes: Sequence>(_ bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var hasher = Hasher()
        var length = 0
        for byte in bytes {
            hasher.combine(byte)
            length += 1
        }
        hasher.combine(length)
        return hasher.finalize()
    }

    /// The ids of the comment lines at `offsets`/`lengths` (in file order), read back from
    /// `descriptor` a chunk at a time: for a file whose first reaction comes after its comments.
    static func reading(_ descriptor: FileDescriptor, offsets: [Int], lengths: [UInt32]) -> CommentIDHashes {
        var found = CommentIDHashes()
        found.hashes.reserveCapacity(offsets.count)
        let prefix = ThreadIndexScan.commentPrefix
        let decoder = ThreadRecordDecoder()
        var position = 0
        while position < offsets.count {
            let start = offsets[position]
            let span = max(chunkSize, Int(lengths[position]))
            guard let bytes = try? descriptor.read(at: start, count: span) else { position += 1; continue }
            // Every line wholly inside what was read (at least the first: `span` covers it).
            while position < offsets.count, offsets[position] - start + Int(lengths[position]) <= bytes.count {
                let from = offsets[position] - start
                let line = bytes[from..<(from + Int(lengths[position]))]
                found.insertID(ofLine: line, prefix: prefix, decoder: decoder)
                position += 1
            }
            if position < offsets.count, offsets[position] == start { position += 1 } // the file shrank: skip it
        }
        return found
    }

    /// Adds a comment line's id: read from its bytes when canonical and plain, else decoded.
    mutating func insertID(ofLine line: ArraySlice<UInt8>, prefix: [UInt8], decoder: ThreadRecordDecoder) {
        let plain: [UInt8]? = line.withUnsafeBytes { raw in
            guard ThreadIndexScan.isCanonicalComment(raw, prefix: prefix) else { return nil }
            return ScanReactions.plainID(raw, after: prefix.count).map { Array($0) }
        }
        if let plain { return insert(plain) }
        if case .record(.comment(let comment)) = decoder.decode(line) { insert(comment.id.utf8) }
    }
}
