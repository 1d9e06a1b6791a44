import Glibc

/// The real clock, read only by the loop and handed on as plain seconds.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
