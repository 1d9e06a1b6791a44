import Foundation
import ThreadModel

/// The room's side of the account's key backup (`MatrixRoomKeys+Backup`): when the room opens or
/// an older page arrives with rows that wait for keys, their keys are restored from the backup
/// off the room's threads (nothing waits for it) and the rows decrypt in place; each new
/// session of ours is uploaded to it after the send that made it. Problems are said in the
/// status bar (a refused backup once per run).
extension MatrixThreadSource {
    /// The queue restores and uploads run on, apart from the room's work (which they never hold up).
    private static let backupQueue = DispatchQueue(label: "comment-tui.matrix.key-backup", attributes: .concurrent)

    /// Restores the keys the room's waiting rows need from the backup, then decrypts the rows
    /// in place. Returns at once.
    func restoreWaitingKeysFromBackup() {
        guard let keys = locked({ timeline.decryption?.keys }) else { return }
        let room = roomID
        Self.backupQueue.async { [weak self] in
            let problems = keys.restoreFromBackup(roomID: room)
            guard let self, !self.stopped else { return }
            var updates = self.locked { self.timeline.decryptWaiting() }
            updates += problems.map { .problem(ThreadProblem(.notLoaded, $0)) }
            if !updates.isEmpty { self.report(updates) }
        }
    }

    /// Uploads our sessions not in the backup yet (the one this send made). Returns at once.
    func backUpOwnSessionsLater() {
        guard let keys = locked({ timeline.decryption?.keys }) else { return }
        Self.backupQueue.async { [weak self] in
            let problems = keys.backUpOwnSessions()
            guard let self, !self.stopped, !problems.isEmpty else { return }
            self.report(problems.map { .problem(ThreadProblem(.notKept, $0)) })
        }
    }

    public func keyNote(of commentID: String) -> String? {
        // The keys' lock is not needed: the origins are under the backup state's own.
        let keys = locked { timeline.decryption?.keys }
        return keys?.backup.origin(of: commentID)?.words
    }
}
