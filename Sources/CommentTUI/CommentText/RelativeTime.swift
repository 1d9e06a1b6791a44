import Foundation

/// Comment times as people say them: `now`, `5m ago`, `3h ago`, `6d ago`, then the date.
///
/// Never wider than `maximumWidth`, so a header laid out for the widest form never re-lays out
/// as time passes. `now` is passed in: the renderer, the `render` verb (`--now`) and tests
/// decide what time it is.
enum RelativeTime {
    /// The widest text this gives (`2025-04-17`).
    static let maximumWidth = 10

    static func text(for date: Date, now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date).rounded(.down))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "\(seconds / 60)m ago"
        case ..<86_400: return "\(seconds / 3600)h ago"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d ago"
        default: return String(TimestampText.utc(date).prefix(10))
        }
    }

    /// Seconds from `now` until the next whole minute, when relative times next change.
    static func secondsToNextMinute(_ now: Date) -> Double {
        let seconds = now.timeIntervalSince1970
        return 60 - seconds.truncatingRemainder(dividingBy: 60)
    }
}
