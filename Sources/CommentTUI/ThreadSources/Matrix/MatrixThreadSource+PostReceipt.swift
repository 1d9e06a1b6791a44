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
    /// Each receipt stands for the comment it is on or after (one on a reaction or an edit this
    /// sync brought: the last comment before it), and only one later than where the marker is
    /// moves it: a public receipt Element left behind our private one, or one on an event
    /// neither the copy nor this sync holds, changes nothing.
    func movedPostReceipt(in room: JSONValue, events: [JSONValue], applied: [ThreadUpdate], lastBefore: String?) -> String? {
        guard let root = postRoot else { return nil }
        let receipts = MatrixOwnReceipts.receipts(inPost: root, among: room["ephemeral"]?["events"]?.array ?? [], me: me)
        guard !receipts.isEmpty else { return nil }
        // The post's order: the copy's comments, then this sync's events.
        let order = locked { cached.comments.map { timeline.eventID(forComment: $0.id) ?? $0.id } } + events.compactMap { $0["event_id"]?.string }
        let rank = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { $1 })
        let resolved = receipts.compactMap { receipt -> (comment: String, event: String, rank: Int)? in
            guard let comment = commentAtOrBefore(receipt.eventID, events: events, applied: applied, lastBefore: lastBefore) else { return nil }
            let event = locked { timeline.eventID(forComment: comment) } ?? comment
            return rank[event].map { (comment, event, $0) }
        }
        guard let newest = resolved.max(by: { $0.rank < $1.rank }) else { return nil }
        let (moved, catchingUp) = locked { () -> (Bool, Bool) in
            let later = markerSent.map { isLater(newest.event, rank: newest.rank, than: $0, ranks: rank) } ?? true
            if later { markerSent = newest.event }
            return (later, isFromCache && !hasCaughtUp)
        }
        guard catchingUp, moved else { return nil }
        return newest.comment
    }

    /// Whether the comment event `eventID` (at `rank` in the post's order) comes after the
    /// marker's event `marker`: by that order where it holds both, else by when the comments were
    /// sent where the timeline knows both; a marker on an event neither knows (the root, or one
    /// older than the copy) is behind.
    private func isLater(_ eventID: String, rank: Int, than marker: String, ranks: [String: Int]) -> Bool {
        guard eventID != marker else { return false }
        if let markerRank = ranks[marker] { return rank > markerRank }
        if let sent = timeline.created(ofComment: eventID), let markerTime = timeline.created(ofComment: marker) { return sent > markerTime }
        return true
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
