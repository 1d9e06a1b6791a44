/// Where a comment of the reader's is on its way to the thread.
enum CommentDelivery: Equatable, Sendable {
    /// Sent and not yet confirmed: shown dimmed, `sending…`.
    case sending
    /// Refused or abandoned: shown dimmed, `not sent — Enter to retry`, with the reason in the status bar.
    case failed(reason: String)
}
