import Foundation
import ThreadModel

/// Formats times for headers as `yyyy-MM-dd HH:mm` in UTC.
///
/// Plain arithmetic (civil-from-days) instead of a `DateFormatter`: headers are drawn for every
/// visible comment on every frame, and a formatter costs microseconds per call.
enum TimestampText {
    static func utc(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Timestamp.civil(fromDays: Int64(days))
        return "\(year)-\(two(Int(month)))-\(two(Int(day))) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
