import Foundation

/// What to do after a failed attempt to send one comment: try again (with the same transaction
/// id, so it is posted once) after a wait, or give up and leave it `not sent` with the reason.
///
/// A homeserver that cannot be reached, is busy (5xx) or rate-limits (429) is waited for with
/// backoff for as long as it takes: the comment waits in the outbox, and the status bar says
/// offline. One that takes the request and gives nothing usable back (no answer in time, a
/// `200` without an `event_id`) gets a few more tries; a refusal for good (any other 4xx) none.
struct MatrixSendRetry: Sendable {
    /// The next step after a failure.
    enum Next: Equatable, Sendable {
        /// Send again after this many seconds.
        case retry(after: Double)
        /// Stop: the comment is not sent, for this reason.
        case notSent(SendFailure)
        /// Stop sending anything: the session has ended on the server (the comment stays queued,
        /// for the next start after logging in again).
        case signedOut(String)
    }

    /// Attempts without a usable answer before the comment is given up on.
    static let unansweredLimit = 3
    /// The longest wait between attempts.
    static let longestWait = MatrixThreadSource.longestRetry
    /// The longest wait a rate limit (429) is honoured with (its own wait is clamped already).
    var longestRateLimitWait = MatrixServerNumber.longestRetryWait

    private var wait = 1.0
    private var unanswered = 0

    /// Decides after an attempt failed with `error`; `inTouch` says whether the server was heard
    /// from lately (a sync answered): only then does a timeout say it took the request and gave
    /// nothing back, else the network may be gone, which only delays the comment.
    mutating func next(after error: Error, inTouch: Bool = true) -> Next {
        guard let error = error as? MatrixError else { return .notSent(SendFailure(.unknown, "\(error)")) }
        if error.errcode == "M_UNKNOWN_TOKEN" { return .signedOut(error.message) }
        if error.isUnanswered, inTouch || !error.timedOut {
            unanswered += 1
            if unanswered >= Self.unansweredLimit {
                // Taken and never answered usably, a try may still have been posted.
                return .notSent(SendFailure(.gaveUp, "\(error.message) (\(unanswered) tries; it may have reached the room)"))
            }
        } else if !error.isTransient {
            return .notSent(SendFailure(error.errcode == "M_TOO_LARGE" ? .tooLarge : .refused, error.message))
        }
        defer { wait = min(wait * 2, Self.longestWait) }
        return .retry(after: error.retryAfter.map { min($0, longestRateLimitWait) } ?? wait)
    }
}
