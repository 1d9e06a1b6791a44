import Foundation
import ThreadModel

/// The room follows its account's one sync: each answer's slice for the room is applied, the
/// sync's connection states are the room's. Where the sync is past the room's position (it was
/// running before the room opened, or an answer could not be applied), the room first catches
/// up by itself with one sync of its own filter from its position, and the account's answers
/// wait meanwhile, then are applied in order (what they repeat is left out by event id).
extension MatrixThreadSource: MatrixSyncListener {
    /// Starts following the account's sync (starting it, if it is not yet).
    func startSyncing() {
        // Answers wait until it is known whether the room catches up first: one applied before
        // an older catch-up would put the newer comments above the older.
        let position = locked { () -> String? in
            isCatchingUpAlone = true
            return nextBatch
        }
        let catchesUp = accountSync.add(self, since: position)
        // Opening just talked to the server: the status bar says so from the first frame, unless
        // the account's sync, already running, says otherwise.
        let account = accountSync.connection
        let state: ConnectionState = isFromCache ? .connecting : account == .connecting ? .live : account
        locked { connection = state }
        report([.connection(state)])
        follow(readingFirst: catchesUp)
        accountSync.start()
    }

    public func accountSynced(_ answer: JSONValue) {
        guard !stopped else { return }
        let held = locked { () -> Bool in
            if isCatchingUpAlone { heldAnswers.append(answer) }
            return isCatchingUpAlone
        }
        guard !held else { return }
        do {
            try apply(sync: answer)
        } catch {
            // A gap's page failed: the room's position did not move; it reads from there itself.
            catchUpAlone()
        }
    }

    public func accountConnectionChanged(_ state: ConnectionState) {
        guard !stopped else { return }
        setConnection(state)
    }

    public func accountSyncFailed(_ error: MatrixError) {
        guard !stopped else { return }
        report([.problem(ThreadProblem(.stoppedFollowing, "the room's updates stopped: \(error.message)"))])
    }

    /// Catches up from the room's own position (an answer could not be applied), unless it is
    /// catching up already (the answer is among what that reads).
    func catchUpAlone() {
        let starts = locked { () -> Bool in
            defer { isCatchingUpAlone = true }
            return !isCatchingUpAlone
        }
        if starts { follow(readingFirst: true) }
    }

    /// On the work queue: a sync of the room's own filter from its position (no wait) when
    /// `readingFirst`, then the account's answers held meanwhile, in order; after a failure,
    /// again from the position reached, with a backoff (1 s doubling to `longestRetry`), the
    /// first failure told. Answers are held until this is done (`isCatchingUpAlone`).
    private func follow(readingFirst: Bool) {
        workQueue.async { [weak self] in
            var reads = readingFirst
            var delay = 1.0
            var told = false
            while let self, !self.stopped {
                do {
                    return try self.catchUp(reading: reads)
                } catch {
                    if self.stopped || (error as? MatrixError)?.kind == .cancelled { return }
                    if !told { self.report([.problem(ThreadProblem(.notLoaded, "could not load the messages missed: \(error)"))]) }
                    told = true
                    reads = true
                    if !self.pause(delay) { return }
                    delay = min(delay * 2, Self.longestRetry)
                }
            }
        }
    }

    private func catchUp(reading: Bool) throws {
        if reading {
            let answer = try client.sync(since: locked { nextBatch }, filter: filter, wait: 0)
            // Its to-device messages (room keys) are handed out here only.
            accountSync.roomKeys?.take(answer)
            let account = accountSync.connection
            try apply(sync: answer, connection: account == .connecting ? .live : account)
        }
        while let next = locked({ () -> JSONValue? in
            guard !heldAnswers.isEmpty else {
                isCatchingUpAlone = false
                return nil
            }
            return heldAnswers.removeFirst()
        }) {
            try apply(sync: next)
        }
    }
}
