import Glibc

/// Comparisons of raw memory the C library does faster than a Swift loop.
enum ByteComparison {
    /// Whether `count` bytes at `a` and at `b` are equal (`memcmp`).
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        memcmp(a, b, count) == 0
    }
}
