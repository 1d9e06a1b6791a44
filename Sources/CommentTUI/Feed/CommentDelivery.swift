/// Where a comment of the reader's is on its way to the thread.
public enum CommentDelivery: Equatable, Sendable {
    /// Sent and not yet confirmed: shown dimmed, `sending…`.
    case sending
    /// Refused for good, or given up on: shown dimmed, `not sent: <reason>`, until the reader
    /// retries it (Enter on an empty composer), takes it back into the draft (Alt-T) or
    /// discards it (Alt-X). Held comments (a check before sending) are the same. The feed
    /// says the failure's words; its kind is the source's.
    case failed(reason: SendFailure)
}
