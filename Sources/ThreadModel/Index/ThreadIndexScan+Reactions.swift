/// The reactions as the index counts them while it reads, keeping no record: a `react` or
/// `unreact` counts at once, and a comment line whose id already has reactions (they came
/// before it: readers ignore those, as `check` names them) starts that comment's count afresh,
/// unless an earlier comment line has the id (a second comment with it, which `check` names):
/// `ThreadIndexScan` asks `reactedID`/`isReacted`, then `forgetReactions(to:)`.
struct ScanReactions {
    /// The reactions counted so far.
    private(set) var tally = ReactionTally()
    /// The hashes of the ids reacted to so far (`idHash`): a comment line's id is looked at
    /// only when its hash is here, so a file without reactions pays nothing per comment.
    private var reactedHashes: Set<UInt64> = []

    /// Counts a record (past a bound it does not count; `render` names it).
    mutating func take(_ change: ReactionChange) {
        tally.apply(change)
        reactedHashes.insert(Self.idHash(change.comment.utf8))
    }

    /// Whether a comment line may need `reactedID`: some reaction came before it.
    var isWatching: Bool { !reactedHashes.isEmpty }

    /// The id of a canonical comment line (`ThreadIndexScan.commentPrefix` first) when reactions
    /// to it were counted already (read from the bytes if plain, else as `decodeID` finds it).
    func reactedID(ofCanonical line: UnsafeRawBufferPointer, prefixLength: Int, decodeID: () -> String?) -> String? {
        let plain = Self.plainID(line, after: prefixLength)
        if let plain, !reactedHashes.contains(Self.idHash(plain)) { return nil }
        guard let id = plain.map({ String(decoding: $0, as: UTF8.self) }) ?? decodeID() else { return nil }
        return isReacted(id) ? id : nil
    }

    /// Whether reactions to `id` were counted already.
    func isReacted(_ id: String) -> Bool { reactedHashes.contains(Self.idHash(id.utf8)) && tally.holds(id) }

    /// A comment with `id` is read, with reactions counted to it already and no earlier comment
    /// line with the id: they came before it and are forgotten.
    mutating func forgetReactions(to id: String) { tally.removeAll(of: id) }

    /// The id's bytes of a canonical comment line (`"id":"…"` right after the prefix) when they
    /// are plain ASCII with no escape; nil when the line must be decoded to know it.
    static func plainID(_ line: UnsafeRawBufferPointer, after prefixLength: Int) -> UnsafeRawBufferPointer? {
        let key = idKey
        guard line.count > prefixLength + key.count else { return nil }
        for index in 0..<key.count where line[prefixLength + index] != key[index] { return nil }
        let start = prefixLength + key.count
        var end = start
        while end < line.count {
            let byte = line[end]
            if byte == UInt8(ascii: "\"") { return UnsafeRawBufferPointer(rebasing: line[start..<end]) }
            if byte == UInt8(ascii: "\\") || byte >= 0x80 || byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    private static let idKey = Array(#""id":""#.utf8)

    /// FNV-1a over an id's UTF-8 bytes.
    static func idHash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
