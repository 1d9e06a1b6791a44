import Foundation

/// A count of the Characters the composer reads from its draft's start or whole: an offset
/// counted from the start (`ComposerDocument.offset(of:)`; `index(atOffset:)`, which makes the
/// whole text a `String`, counts its bytes) and the Markdown written for the whole draft. A
/// key should read none of that (it costs what its edit costs); tests count a key's reads with
/// it, at n and 2n, without a clock.
public enum ComposerWholeReads {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var total = 0
    nonisolated(unsafe) private static var segmentedTotal = 0

    /// The Characters read so far in this process.
    public static var characters: Int { lock.withLock { total } }

    /// Notes `count` Characters read.
    static func add(_ count: Int) { lock.withLock { total += count } }

    /// The UTF-8 bytes of draft text segmented into Characters so far in this process (the
    /// stretches a step over Characters cuts, `String` segmentation of each): a move from the
    /// caret should segment each stretch it crosses once, not once a step.
    public static var segmentedBytes: Int { lock.withLock { segmentedTotal } }

    /// Notes `count` bytes segmented.
    static func addSegmented(_ count: Int) { lock.withLock { segmentedTotal += count } }
}
