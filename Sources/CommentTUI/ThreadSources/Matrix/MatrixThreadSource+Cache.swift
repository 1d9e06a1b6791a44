import Foundation
import ThreadModel

/// Keeping the room's snapshot: what the syncs bring is added to it, saved at most every few
/// seconds and when the source stops.
extension MatrixThreadSource {
    /// The most comments a snapshot holds before it starts again at a sync batch.
    static let cacheLimit = 1000
    /// The least time between two saves while syncs keep coming.
    static let cacheInterval = 2.0

    /// Adds a sync's comments and edits; past the limit the snapshot starts at this batch.
    func remember(_ updates: [ThreadUpdate], batchStart: String?) {
        guard cache != nil else { return }
        var switchedToEncryption = false
        locked {
            for update in updates {
                switch update {
                case .commentsAppended(let list):
                    if cached.comments.count + list.count > Self.cacheLimit, let batchStart {
                        cached = ([], restartToken(batchStart))
                    }
                    cached.comments += list
                case .commentEdited(var edited):
                    // Ours sent from here are kept under their event id; the edit names them by
                    // the app's (transaction) id.
                    let eventID = timeline.eventID(forComment: edited.id)
                    if let at = cached.comments.firstIndex(where: { $0.id == edited.id || $0.id == eventID }) {
                        edited.id = cached.comments[at].id
                        cached.comments[at] = edited
                    }
                case .sendingHeld:
                    switchedToEncryption = true
                default:
                    break
                }
            }
        }
        // The switch to encryption is kept at once: a copy without it would open ready to send.
        saveCache(ifDue: !switchedToEncryption)
    }

    /// Adds a comment of ours the server confirmed.
    func remember(sent comment: Comment) {
        guard cache != nil else { return }
        locked { cached.comments.append(comment) }
        saveCache(ifDue: true)
    }

    /// Writes the snapshot (`ifDue`: only when the last save is a few seconds old).
    func saveCache(ifDue: Bool = false) {
        // Decrypted text is never written to the offline copy, which is not encrypted.
        guard let cache, !locked({ timeline.isEncrypted && timeline.decryption != nil }) else { return }
        // The members are copied under the lock (a copy on write) and listed after it: sorting
        // 50,000 of them held the lock the loop's thread needs.
        let taken = locked { () -> (MatrixRoomCache.Snapshot, MatrixMembers)? in
            let now = Date()
            if ifDue, let last = cacheSavedAt, now.timeIntervalSince(last) < Self.cacheInterval { return nil }
            guard let nextBatch else { return nil }
            cacheSavedAt = now
            let keptIDs = Set(cached.comments.map(\.id))
            let snapshot = MatrixRoomCache.Snapshot(
                roomID: roomID, label: label, header: liveHeader ?? ThreadHeader(thread), postEventID: timeline.postEventID,
                users: [], comments: cached.comments, olderToken: cached.olderToken,
                nextBatch: nextBatch, fullyRead: markerSent, isEncrypted: timeline.isEncrypted,
                placeholders: timeline.placeholders.intersection(cached.comments.map(\.id)),
                reactions: Dictionary(timeline.reactions.reactions(to: keptIDs), uniquingKeysWith: { a, _ in a }),
                posts: timeline.threadSummaries.entries.filter { keptIDs.contains($0.key) })
            return (snapshot, timeline.members)
        }
        guard let (unlisted, members) = taken else { return }
        var snapshot = unlisted
        snapshot.users = members.users
        do {
            try cache.save(snapshot)
        } catch {
            report([.problem(ThreadProblem(.notKept, "could not keep the room for offline use: \(error)"))])
        }
    }
}
