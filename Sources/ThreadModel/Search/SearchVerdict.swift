/// What a thread file's raw line says of a search without decoding it.
public enum SearchVerdict: UInt8, Sendable {
    /// The comment does not match.
    case no
    /// The comment matches (the line is canonical and its body or author holds the query).
    case yes
    /// The line must be decoded to know: it is not in the canonical shape, or holds something
    /// read differently from its bytes (an escape the decoder may treat otherwise, bytes that
    /// are not UTF-8, an author written with escapes).
    case undecided
}

/// Verdicts for a run of comment lines, newest first, and the bytes read to give them.
public struct SearchVerdicts: Sendable {
    /// One per comment, from the newest of the run down.
    public var verdicts: [SearchVerdict]
    /// Bytes of the file read.
    public var bytes: Int

    public init(verdicts: [SearchVerdict], bytes: Int) {
        self.verdicts = verdicts
        self.bytes = bytes
    }
}
