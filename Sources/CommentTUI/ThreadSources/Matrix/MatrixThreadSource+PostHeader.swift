import Foundation
import ThreadModel

/// A post's header follows its root: an edit or a redaction of the root (a room event, which
/// the post's feed leaves out: the root is no comment) retitles or clears the header, live and
/// when a post opened from its offline copy catches up (what changed while it was closed).
extension MatrixThreadSource {
    /// The header change a sync's `events` make to the post's root (call on the sync thread,
    /// unlocked): the root read again, its newest edit by its sender bundled, when an event
    /// edits or redacts it, or at the catching-up sync of a post opened from its copy.
    func postHeaderUpdates(events: [JSONValue]) -> [ThreadUpdate] {
        guard let root = locked({ timeline.scope.root }) else { return [] }
        let catchingUp = isFromCache && !locked { hasCaughtUp }
        guard catchingUp || events.contains(where: { Self.changes(root: root, $0) }),
              let event = try? client.event(room: roomID, id: root) else { return [] }
        return locked { () -> [ThreadUpdate] in
            let read = MatrixRoomOpening.postHeader(event, members: timeline.members)
            var header = liveHeader ?? ThreadHeader(thread)
            guard header.title != read.title || header.body != read.body else { return [] }
            header.title = read.title
            header.body = read.body
            liveHeader = header
            return [.headerChanged(title: header.title, body: header.body)]
        }
    }

    /// Whether `event` edits or redacts the event `root`.
    static func changes(root: String, _ event: JSONValue) -> Bool {
        if event["type"]?.string == "m.room.redaction" {
            return event["redacts"]?.string == root || event["content"]?["redacts"]?.string == root
        }
        let relation = event["content"]?["m.relates_to"]
        return relation?["rel_type"]?.string == "m.replace" && relation?["event_id"]?.string == root
    }
}
