import Foundation

/// At exit, the verifications still going are cancelled (`m.user`), as a person closing the
/// panel would: the other device says so at once instead of waiting out its timeout.
extension MatrixVerifications {
    /// Cancels every unfinished verification, waiting at most `wait` seconds for the cancels to
    /// go (a server that does not answer never holds an exit longer).
    func cancelUnfinished(waitingAtMost wait: TimeInterval) {
        let ids = lock.withLock { order.filter { entries[$0]?.machine.isFinished == false } }
        guard !ids.isEmpty else { return }
        let sent = DispatchGroup()
        sent.enter()
        Thread.detachNewThread { [self] in
            for id in ids { cancel(id) }
            sent.leave()
        }
        _ = sent.wait(timeout: .now() + wait)
    }
}
