import Foundation
import ThreadModel

/// Posts summed up under their roots in the room's feed (`MatrixThreadSummaries`): kept apart
/// from the comments' text and reported as a root's `.postSummaryChanged`, which the feed draws
/// under the text without laying it out again. Only the room's own feed sums posts up.
extension MatrixTimeline {
    /// Notes a message or encrypted event met as newer: a reply in a post counts in its root's
    /// summary (the event is applied once: `applied`), a root's bundle is read. The root whose
    /// summary changed, if one did.
    mutating func notePost(newer event: JSONValue) -> String? {
        guard scope == .room else { return nil }
        if let id = event["event_id"]?.string { threadSummaries.order.noteNewer(id) }
        guard let root = MatrixTimelineScope.threadRoot(of: event) else { return threadSummaries.read(bundleOf: event) }
        guard let id = event["event_id"]?.string, let sender = event["sender"]?.string else { return nil }
        let at = MatrixServerNumber.time(milliseconds: event["origin_server_ts"])
        return threadSummaries.replyArrived(root: root, eventID: id, sender: sender, at: at) ? root : nil
    }

    /// Notes a message met in an older page: only a root's bundle counts (its older replies are in it).
    mutating func notePost(older event: JSONValue) -> String? {
        guard scope == .room else { return nil }
        if let id = event["event_id"]?.string { threadSummaries.order.noteOlder(id) }
        guard MatrixTimelineScope.threadRoot(of: event) == nil else { return nil }
        return threadSummaries.read(bundleOf: event)
    }

    /// A sync's word on the room's posts: the server's unread counts per post and our read
    /// receipts (`m.receipt`: with a post's `thread_id`, or none, covering every post; `main`
    /// covers none); the summaries that changed.
    mutating func postsRead(in room: JSONValue) -> [ThreadUpdate] {
        guard scope == .room else { return [] }
        var changed = threadSummaries.countsArrived(room["unread_thread_notifications"])
        for event in room["ephemeral"]?["events"]?.array ?? [] where event["type"]?.string == "m.receipt" {
            for (eventID, receipt) in event["content"]?.object ?? [:] where eventID.hasPrefix("$") && eventID.utf8.count <= 255 {
                for kind in ["m.read", "m.read.private"] {
                    guard let mine = receipt[kind]?[members.me], mine.object != nil else { continue }
                    let root = mine["thread_id"]?.string
                    guard root != "main", threadSummaries.readReceipt(root: root, eventID: eventID) else { continue }
                    if let root { changed.insert(root) } else { changed.formUnion(threadSummaries.entries.keys.filter { knows($0) }) }
                }
            }
        }
        return postSummaryUpdates(changed)
    }

    /// The summaries of these roots, by the id the app knows each by (nil: none, or no replies).
    func postSummaryUpdates(_ roots: some Sequence<String>) -> [ThreadUpdate] {
        roots.sorted().map { root in
            .postSummaryChanged(commentID: commentID(forEvent: root),
                                threadSummaries.summary(of: root, me: members.me, name: { members.name(of: $0) }))
        }
    }

    /// Every post's summary (what the opening or the offline copy brought).
    func allPostSummaryUpdates() -> [ThreadUpdate] {
        postSummaryUpdates(threadSummaries.entries.keys.filter { knows($0) })
    }

    /// The roots among `roots` that are comments handed out, or the post.
    private func known(among roots: some Sequence<String>) -> Set<String> {
        Set(roots.filter { knows($0) || $0 == postEventID })
    }

    /// A root event read again because its post's count was stale: its bundle is the count now.
    mutating func rereadPost(_ root: JSONValue) -> [ThreadUpdate] {
        guard scope == .room, let id = threadSummaries.read(bundleOf: root, fresh: true) else { return [] }
        return postSummaryUpdates([id])
    }

    /// A batch was applied: its bundles cover no later reply, and the posts past the bound whose
    /// root is not a known comment are forgotten.
    mutating func boundLoosePosts() {
        threadSummaries.batchEnded()
        guard threadSummaries.entries.count > MatrixThreadSummaries.mostLooseRoots else { return }
        let known = known(among: threadSummaries.entries.keys)
        threadSummaries.bound { known.contains($0) }
    }
}
