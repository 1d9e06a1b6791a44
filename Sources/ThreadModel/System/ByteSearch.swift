import Glibc

/// Searches of raw memory the C library does faster than a Swift loop.
enum ByteSearch {
    /// The offset of the first `\n` in `bytes[start..<end]`, or nil: glibc's `memchr` is vectorized,
    /// many times faster than a byte loop over a large file.
    static func firstNewline(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        guard start < end, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The offset of the first occurrence of `needle` in `haystack[start...]`, or nil: `memchr`
    /// finds each place its first byte is, `memcmp` compares the rest (Swift does not see glibc's
    /// `memmem`). An empty needle is found nowhere.
    static func firstIndex(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let first = needle.first, let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return nil }
        let count = needle.count
        var at = start
        while haystack.count - at >= count {
            guard let found = memchr(base + at, Int32(first), haystack.count - at - count + 1) else { return nil }
            let offset = base.distance(to: UnsafeRawPointer(found))
            if memcmp(found, needleBase, count) == 0 { return offset }
            at = offset + 1
        }
        return nil
    }
}
