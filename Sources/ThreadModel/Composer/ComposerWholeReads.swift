import Foundation

/// A count of the Characters the composer reads from its draft's start or whole: an offset
/// counted from the start (`ComposerDocument.offset(of:)`; `index(atOffset:)`, which makes the
/// whole text a `String`, counts its bytes) and the Markdown written for the whole draft. A
/// key should read none of that (it costs what its edit costs); tests count a key's reads with
/// it, at n and 2n, without a clock.
public enum ComposerWholeReads {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var total = 0

    /// The Characters read so far in this process.
    public static var characters: Int { lock.withLock { total } }

    /// Notes `count` Characters read.
    static func add(_ count: Int) { lock.withLock { total += count } }
}
