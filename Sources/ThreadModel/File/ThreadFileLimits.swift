/// The sizes a thread file's writers and readers keep to, so that one huge comment or one
/// endless line cannot take a reader's memory or time.
public enum ThreadFileLimits {
    /// The longest comment body written: 1 MiB of UTF-8 (`post` and the client refuse more).
    public static let bodyBytes = 1 << 20
    /// The longest line read: 8 MiB. A body at its limit fits even escaped six bytes a byte
    /// (control characters as `\u0001`); a longer line is skipped and reported, a longer
    /// unfinished one is never held in memory.
    public static let lineBytes = 8 << 20

    /// Throws when `body` is over `bodyBytes`.
    public static func checkBody(_ body: String) throws {
        let count = body.utf8.count
        guard count <= bodyBytes else { throw OverLimit(what: "the comment", bytes: count, limit: bodyBytes) }
    }

    /// "8 MiB (8388608 bytes)".
    static func describe(_ limit: Int) -> String { "\(limit >> 20) MiB (\(limit) bytes)" }

    /// The problem reported for a line over `lineBytes`.
    static func overlongLineMessage(bytes: Int) -> String {
        "line of \(bytes) bytes is over the \(describe(lineBytes)) line limit: skipped"
    }
}

/// Something too big to write: a comment body or a record's line over its limit.
public struct OverLimit: Error, CustomStringConvertible, Sendable {
    /// What is too big, e.g. "the comment".
    public var what: String
    /// Its size in bytes.
    public var bytes: Int
    /// The limit in bytes.
    public var limit: Int

    public var description: String {
        "\(what) is \(bytes) bytes, over the \(ThreadFileLimits.describe(limit)) limit"
    }
}
