import Foundation
import ThreadModel

/// Numbers a homeserver sends, brought into the range the client can use.
///
/// A server, and through events any room member, can send any JSON number: a wait of 10^13 ms
/// made `NSCondition.wait(until:)` trap converting the date to nanoseconds, and a time in the
/// year 250,000 is written to a thread file that no reader (ours included) can parse back.
/// Every number read from an answer goes through here before it is used.
enum MatrixServerNumber {
    /// The shortest wait a rate limit (429) is honoured with: a server asking for none, or for a
    /// negative one, would otherwise have the client retry in a busy loop.
    static let shortestRetryWait = 0.5
    /// The longest: a server asking for more is asked again after this (and may answer 429 again).
    /// The spec asks clients to wait `retry_after_ms`; five minutes honours any sensible wait and
    /// stays far below where a date's conversion to nanoseconds overflows (about 292 years).
    static let longestRetryWait = 300.0
    /// The earliest time an event is given: the Unix epoch (servers use it for "unknown").
    static let earliestTime = Date(timeIntervalSince1970: 0)
    /// The latest: 9999-12-31T23:59:59Z, the last a thread file's four-digit year can hold.
    static let latestTime = Date(timeIntervalSince1970: 253_402_300_799)

    /// Seconds to wait after a 429: the `Retry-After` header (whole seconds) when the server
    /// sent one, else the body's `retry_after_ms`; nil when neither is a number. Clamped to
    /// `shortestRetryWait...longestRetryWait`.
    static func retryWait(header: String?, milliseconds: JSONValue?) -> Double? {
        let fromHeader = header.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let fromBody = milliseconds.flatMap { value -> Double? in if case .number(let n) = value { n / 1000 } else { nil } }
        guard let seconds = [fromHeader, fromBody].lazy.compactMap({ $0 }).first(where: { !$0.isNaN }) else { return nil }
        return min(max(seconds, shortestRetryWait), longestRetryWait)
    }

    /// An event's time from its milliseconds since the epoch (`origin_server_ts`, an import's
    /// `created_ms`): the epoch when missing or not a number, else clamped to `earliestTime...latestTime`.
    static func time(milliseconds value: JSONValue?) -> Date {
        guard case .number(let milliseconds)? = value, !milliseconds.isNaN else { return earliestTime }
        let seconds = milliseconds / 1000
        return Date(timeIntervalSince1970: min(max(seconds, earliestTime.timeIntervalSince1970), latestTime.timeIntervalSince1970))
    }
}
