/// The reactions as the index counts them while it reads, keeping no record: a `react` or
/// `unreact` counts at once when its comment's line came before it (`ThreadIndexScan` asks
/// `CommentIDHashes`); one before its comment, or naming a comment the file never holds, is
/// dropped as it is read (readers ignore those, as `check` names them).
struct ScanReactions {
    /// The reactions counted so far.
    private(set) var tally = ReactionTally()

    /// Counts a record whose comment came before it (past a bound it does not count; `render` names it).
    mutating func take(_ change: ReactionChange) {
        tally.apply(change)
    }

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
}
