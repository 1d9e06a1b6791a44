import Foundation

/// A sync that does not end in time says so: a long poll answers within its wait, so one still
/// running `syncStallGrace` seconds after it (a server hanging, or an answer trickling in a few
/// bytes a second) turns a `live` status into `stalled` until an answer comes (live again) or
/// the request's deadline ends it (offline, and retried).
extension MatrixThreadSource {
    /// Runs one sync request (`body`, a long poll waiting `wait` seconds) with a stall watch.
    func watchingForStall<T>(wait: Int, _ body: () throws -> T) rethrows -> T {
        let round = SyncRound()
        let watch = DispatchWorkItem { [weak self] in self?.noteStall(of: round) }
        // Not the work queue: a page being loaded there would hold the notice back.
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(wait) + syncStallGrace, execute: watch)
        defer {
            watch.cancel()
            locked { round.isOver = true }
        }
        return try body()
    }

    /// The sync `round` is overdue: a live status says stalled, under the lock the answer's
    /// `live` is set under, so a stall noticed just as the answer comes is never reported after it.
    private func noteStall(of round: SyncRound) {
        let noticed = locked { () -> Bool in
            guard !round.isOver, !isStopped, connection == .live else { return false }
            connection = .stalled
            queued.append(.connection(.stalled))
            return true
        }
        if noticed { wake.wake() }
    }
}

/// One sync request, over once it returned (read and written under the source's lock).
final class SyncRound: @unchecked Sendable {
    var isOver = false
}
