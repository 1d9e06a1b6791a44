import Foundation

/// What an account's sync does next, decided from what happened and when: the token the next
/// request resumes from, how long its long poll waits, the backoff after a failure, the wait a
/// 429 asks for, when a request running is overdue, and the connection's state that follows.
///
/// A value fed events and the time they happened (`now`: time on the account's clock, from
/// any origin); it reads no clock and does no I/O, so its tests advance time in milliseconds
/// without a server. `MatrixAccountSync` carries its decisions out.
struct SyncSchedule: Equatable {
    /// One `/sync` request to make.
    struct Request: Equatable {
        /// The token it resumes from (nil: an initial sync).
        var since: String?
        /// Seconds the long poll waits on the server for something new.
        var wait: Int
        /// When it counts as overdue (its wait and `stallGrace` after it started).
        var overdueAt: Duration
    }

    /// What to do now.
    enum Step: Equatable {
        /// Make this request (it is running from now until answered or failed).
        case request(Request)
        /// Wait until then (a backoff, a 429's wait), or until `sendProven` cuts it short.
        case wait(until: Duration)
    }

    /// How a request failed (a 429 is `rateLimited`, a cancelled request no failure).
    enum Failure: Equatable {
        /// The network, a timeout, a server error: only the connection's state says so.
        case transient
        /// A refusal, a redirect, a session ended: of this kind (told once until an answer).
        case refused(MatrixError.Kind)
    }

    /// Seconds a long poll waits on the server once the room is live.
    var pollSeconds = MatrixThreadSource.pollSeconds
    /// The longest wait between reconnection attempts.
    var longestRetry = MatrixThreadSource.longestRetry
    /// Seconds past its long poll's wait after which a request still running is overdue (`stalled`).
    var stallGrace = 15.0
    /// The longest a 429 is honoured (tests shorten it).
    var longestRateLimitWait = MatrixServerNumber.longestRetryWait

    /// Where the next request resumes.
    private(set) var since: String?
    /// The connection's state, as the status bar says it.
    private(set) var connection = ConnectionState.connecting
    /// Whether a request was ever made.
    private(set) var hasRequested = false
    /// The request running now, if one is, and whether it is overdue.
    private(set) var running: Request?
    private(set) var isOverdue = false
    /// Seconds the next request's long poll waits: none after opening or a failure, so the
    /// answer says `live` as soon as the server answers, not a quiet room's 30 s later.
    private var wait = 0
    /// The backoff after the next transient failure.
    private var delay = 1.0
    /// No request before this (a backoff, a 429's wait).
    private var notBefore: Duration?
    /// A send went through while a retry was due: the next failure retries at once.
    private var retryNow = false
    /// The kind of refusal last told (once, not at each retry, though its words may change).
    private var told: MatrixError.Kind?

    /// A schedule resuming from `since` (nil: the first request is an initial sync).
    init(since: String? = nil) { self.since = since }

    /// Resumes from `token` instead, before any request was made (the first room's opening
    /// position when the account's sync starts for it); false once one was.
    mutating func adopt(since token: String?) -> Bool {
        guard !hasRequested else { return false }
        since = token
        return true
    }

    /// The next step at `now`; a request returned is running until `answered` or `failed`.
    mutating func next(at now: Duration) -> Step {
        if let running { return .request(running) }
        if let notBefore, now < notBefore { return .wait(until: notBefore) }
        notBefore = nil
        // The next attempt starts: `connecting`, unless a send proved the connection meanwhile.
        switch connection {
        case .offline, .rateLimited: connection = .connecting
        case .connecting, .live, .stalled: break
        }
        let request = Request(since: since, wait: wait, overdueAt: now + Self.duration(Double(wait) + stallGrace))
        running = request
        isOverdue = false
        hasRequested = true
        return .request(request)
    }

    /// The running request was answered with `nextBatch`: live, long polls from now on.
    mutating func answered(nextBatch: String, at now: Duration) {
        since = nextBatch
        endRequest()
        connection = .live
        wait = pollSeconds
        delay = 1
        told = nil
        // A send proven during this request asked for a retry that is not needed now.
        retryNow = false
    }

    /// The running request failed: offline, retried after the backoff (doubling to
    /// `longestRetry`), or at once if a send went through meanwhile. True when the failure
    /// is a refusal of a kind not told since the last answer: the listeners are told why.
    mutating func failed(_ failure: Failure, at now: Duration) -> Bool {
        endRequest()
        connection = .offline(retryIn: Int(delay.rounded()))
        notBefore = retryNow ? now : now + Self.duration(delay)
        retryNow = false
        delay = min(delay * 2, longestRetry)
        wait = 0
        guard case .refused(let kind) = failure, told != kind else { return false }
        told = kind
        return true
    }

    /// The running request was answered 429: nothing is asked for `seconds` (at least
    /// `MatrixServerNumber.shortestRetryWait`, at most `longestRateLimitWait`), and the status
    /// says `rate limited` rather than live. A send going through does not cut it short.
    mutating func rateLimited(retryAfter seconds: Double, at now: Duration) {
        endRequest()
        let asked = seconds.isNaN ? MatrixServerNumber.shortestRetryWait : seconds
        let waited = min(max(asked, MatrixServerNumber.shortestRetryWait), longestRateLimitWait)
        connection = .rateLimited(retryIn: Int(waited.rounded(.up)))
        notBefore = now + Self.duration(waited)
        wait = 0
    }

    /// Another request (a send) was answered: the connection is live, and a retry waiting out
    /// its backoff goes now. Not while the running request is overdue (it is stalled until it
    /// ends), nor while rate limited (it waits as long as the server asked). True when the
    /// connection's state changed.
    mutating func sendProven(at now: Duration) -> Bool {
        switch connection {
        case .live, .stalled, .rateLimited:
            return false
        case .offline, .connecting:
            // Waiting: the retry goes now. Running: if it fails, the next goes at once.
            if notBefore != nil { notBefore = now } else { retryNow = true }
            guard !isOverdue else { return false }
            connection = .live
            return true
        }
    }

    /// Whether the running request is overdue at `now`: if it just became so, the status says
    /// `stalled` (whatever it said: `live`, or `connecting` for a retry) until it ends. True
    /// when the connection's state changed.
    mutating func checkStall(at now: Duration) -> Bool {
        guard let running, !isOverdue, now >= running.overdueAt else { return false }
        isOverdue = true
        guard connection != .stalled else { return false }
        connection = .stalled
        return true
    }

    /// When the next step is due, if it is not now: a wait's end, or the running request's
    /// stall check.
    var nextDeadline: Duration? {
        if let running { return isOverdue ? nil : running.overdueAt }
        return notBefore
    }

    /// Seconds as a duration, to the millisecond (the schedule's resolution).
    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    private mutating func endRequest() {
        running = nil
        isOverdue = false
    }
}
