import Foundation
import ThreadModel

/// A post's receipt as syncs bring it: our threaded receipt in the post (`thread_id` its root),
/// sent by this client or another of ours (Element). It is where the post's marker is on the
/// server (`markerSent`), which the offline copy keeps, so a post reopened from the copy starts
/// from there; and at the sync that catches a copy up, one moved while the post was closed moves
/// the divider forward, as `m.fully_read` does for the room's feed (`movedMarker`).
extension MatrixThreadSource {
    /// Notes our receipt in the post among a sync's ephemeral events; the comment the divider
    /// goes after when it moved while the post was closed (at a copy's catch-up), else nil.
    func movedPostReceipt(in room: JSONValue, events: [JSONValue], applied: [ThreadUpdate], lastBefore: String?) -> String? {
        guard let root = postRoot else { return nil }
        let receipts = MatrixOwnReceipts.inPost(root, among: room["ephemeral"]?["events"]?.array ?? [], me: me)
        guard !receipts.isEmpty else { return nil }
        // A public and a private one: the later in the post's order (the copy's, then this sync's) is ours.
        let order = receipts.count < 2 ? [] : locked { cached.comments.map { timeline.eventID(forComment: $0.id) ?? $0.id } }
            + events.compactMap { $0["event_id"]?.string }
        guard let receipt = MatrixOwnReceipts.newest(receipts, in: order) else { return nil }
        let (before, catchingUp) = locked { () -> (String?, Bool) in
            defer { markerSent = receipt }
            return (markerSent, isFromCache && !hasCaughtUp)
        }
        guard catchingUp, receipt != before else { return nil }
        return commentAtOrBefore(receipt, events: events, applied: applied, lastBefore: lastBefore)
    }

    /// The comment a marker on `eventID` stands after: the last that arrived at or before it in
    /// this sync's `events` (`lastBefore`, the newest kept, when none did); the comment itself
    /// when the copy holds it; nil when neither knows it.
    func commentAtOrBefore(_ eventID: String, events: [JSONValue], applied: [ThreadUpdate], lastBefore: String?) -> String? {
        let arrived: [Comment] = applied.flatMap { update -> [Comment] in
            if case .commentsAppended(let list) = update { list } else { [] }
        }
        if let at = events.firstIndex(where: { $0["event_id"]?.string == eventID }) {
            let upToMarker = Set(events[...at].compactMap { $0["event_id"]?.string })
            return arrived.last(where: { upToMarker.contains($0.id) })?.id ?? lastBefore
        }
        return locked { cached.comments.contains { $0.id == eventID } } ? eventID : nil
    }
}
