import Foundation
import ThreadModel

/// A post's comments queued in its outbox and not sent (the client was killed, or quit
/// offline) go without the reader opening the post again: when home first lists the post, it
/// opens in the background (not shown), and its opening sends them as any thread's does.
extension CommentClient {
    /// Opens, unshown, each listed post whose outbox holds comments (asked once a run per post).
    func openPostsWithQueuedComments(_ rows: [ThreadSummary]) {
        guard let opener, let hasQueued = postHasQueuedComments else { return }
        for row in rows {
            guard case .post = row.key, sessions[row.key] == nil, queuedPostsOpened.insert(row.key).inserted,
                  hasQueued(row.key) else { continue }
            opener.open(row.key)
        }
    }

    /// Whether a post's outbox (the account's state files, by room and root) holds comments not sent.
    static func postOutboxHasComments(_ key: ThreadKey, environment: [String: String]) -> Bool {
        guard case .post(let account, let roomID, let root) = key,
              let files = MatrixThreadSource.stateFiles(me: account, roomID: roomID, root: root, environment: environment),
              FileManager.default.fileExists(atPath: CommentOutbox(files: files).path) else { return false }
        return (try? CommentOutbox(files: files).unsent())?.isEmpty == false
    }
}
