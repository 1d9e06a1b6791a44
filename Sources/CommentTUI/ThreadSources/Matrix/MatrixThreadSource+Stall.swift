import Foundation

/// A sync that does not end in time says so: a long poll answers within its wait, so one still
/// running `syncStallGrace` seconds after it (a server hanging, or an answer trickling in a few
/// bytes a second) turns the status into `stalled`, whatever it was (`live`, or `connecting` for
/// a retry), until an answer comes (live again) or the request's deadline ends it (offline, and
/// retried). While it is overdue nothing calls the connection live (a send going through).
extension MatrixThreadSource {
    /// One sync request, overdue once its stall watch fired, over once it returned (read and
    /// written under the source's lock).
    final class SyncRound: @unchecked Sendable {
        var isOverdue = false
        var isOver = false
    }

    /// Runs one sync request (`body`, a long poll waiting `wait` seconds) with a stall watch.
    func watchingForStall<T>(wait: Int, _ body: () throws -> T) rethrows -> T {
        let round = SyncRound()
        locked { syncRound = round }
        let watch = DispatchWorkItem { [weak self] in self?.noteStall(of: round) }
        // Not the work queue: a page being loaded there would hold the notice back.
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(wait) + syncStallGrace, execute: watch)
        defer {
            watch.cancel()
            locked {
                round.isOver = true
                if syncRound === round { syncRound = nil }
            }
        }
        return try body()
    }

    /// Whether the sync running now is overdue (call locked).
    var isSyncOverdue: Bool { syncRound?.isOverdue == true }

    /// The sync `round` is overdue: the status says stalled. Checked and set under the lock the
    /// answer's `live` is set under, so a stall noticed just as the answer comes is never
    /// reported after it.
    private func noteStall(of round: SyncRound) {
        setConnection(.stalled) {
            guard !round.isOver, !isStopped else { return false }
            round.isOverdue = true
            return true
        }
    }
}
