#if canImport(Glibc)
import Glibc
#endif

/// Gives the heap's free pages back to the system (glibc's `malloc_trim`).
///
/// Opening a big thread frees much of what it allocated (the file read, its records), and glibc
/// keeps those pages. Work that then allocates on another thread (the mention index's build) takes
/// its memory from an arena of its own and cannot reuse them, so without a trim its memory
/// stacks on the opening's: 106 MB instead of 92 MB at 100,000 users.
public enum HeapTrim {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// `malloc_trim`, looked up once (not in the Glibc module's headers); nil without it (another libc).
    nonisolated(unsafe) private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    /// Returns every arena's free pages to the system; a few milliseconds at most.
    public static func giveBackFreePages() {
        _ = trim?(0)
    }
}
