import Foundation
import ThreadModel

/// Reads a room's timeline events into the newest message a home row previews: the message's
/// markup as the feed would show it (from `formatted_body`, so a spoiler stays hidden), cut to
/// `Limits.previewBytes` with an open spoiler closed; an edit of that message replaces its text;
/// a deleted or encrypted one shows as a short marker, never its ciphertext.
struct MatrixRoomPreviewReader {
    let limits: MatrixAccountRooms.Limits

    /// Shown for a message too long for any homeserver to have accepted (more than an event's
    /// 64 KiB): it is not read at all.
    static let tooLong = "(message too long to preview)"

    /// Applies a room's timeline events (in the answer's order, oldest first). Only the newest
    /// message and what follows it can change the preview, so only those are read: a long answer
    /// costs one message's conversion per room, not one per message.
    func apply(timeline events: [JSONValue], to room: inout MatrixAccountRoom) {
        let newest = events.lastIndex(where: Self.isMessageWithRow) ?? 0
        for (index, event) in events.enumerated() {
            guard let envelope = Self.envelope(of: event) else { continue }
            room.lastEventTime = max(room.lastEventTime ?? envelope.time, envelope.time)
            if index >= newest { apply(event, envelope, to: &room) }
        }
    }

    /// An event's type, sender, id and time; nil when any is missing or not of its shape.
    private static func envelope(of event: JSONValue) -> (type: String, sender: String, eventID: String, time: Date)? {
        guard let type = event["type"]?.string, let sender = event["sender"]?.string, MatrixGrammar.isUserID(sender),
              let eventID = event["event_id"]?.string, !eventID.isEmpty, eventID.utf8.count <= 255 else { return nil }
        return (type, sender, eventID, MatrixServerNumber.time(milliseconds: event["origin_server_ts"]))
    }

    /// Whether an event is a message of its own (not an edit, a reaction or another kind of event).
    private static func isMessageWithRow(_ event: JSONValue) -> Bool {
        guard envelope(of: event) != nil else { return false }
        let content = event["content"]
        switch event["type"]?.string {
        case "m.room.message": return content?["m.relates_to"]?["rel_type"]?.string != "m.replace" || isRedacted(event)
        case "m.room.encrypted":
            return isRedacted(event) || MatrixEncryptedEvent(event: event, sender: event["sender"]?.string ?? "")?.hasRow == true
        default: return false
        }
    }

    private static func isRedacted(_ event: JSONValue) -> Bool {
        event["unsigned"]?["redacted_because"] != nil || event["content"]?.object?.isEmpty == true
    }

    private func apply(_ event: JSONValue, _ envelope: (type: String, sender: String, eventID: String, time: Date),
                       to room: inout MatrixAccountRoom) {
        let (type, sender, eventID, time) = envelope
        let content = event["content"]
        let isRedacted = Self.isRedacted(event)
        switch type {
        case "m.room.message":
            let relation = content?["m.relates_to"]
            if !isRedacted, relation?["rel_type"]?.string == "m.replace" {
                // An edit changes the message it replaces; it is no newer message of its own.
                guard let target = relation?["event_id"]?.string, target == room.preview?.eventID,
                      let replacement = content?["m.new_content"] else { return }
                if let body = body(of: replacement, sender: sender, isReply: false, in: room) { room.preview?.body = body }
                return
            }
            let text = isRedacted ? MatrixEventReader.deleted
                : content.flatMap { body(of: $0, sender: sender, isReply: relation?["m.in_reply_to"] != nil, in: room) }
                ?? MatrixEventReader.unreadable
            room.preview = .init(eventID: eventID, sender: sender, body: text, time: time)
        case "m.room.encrypted":
            if isRedacted {
                room.preview = .init(eventID: eventID, sender: sender, body: MatrixEventReader.deleted, time: time)
                return
            }
            // An encrypted edit or reaction changes no row; the rest is a message we cannot read.
            guard let encrypted = MatrixEncryptedEvent(event: event, sender: sender), encrypted.hasRow else { return }
            room.preview = .init(eventID: eventID, sender: sender, body: MatrixEncryptedEvent.body, time: time)
        case "m.room.redaction":
            // Room versions up to 10 put `redacts` at the top; version 11 moved it into the content.
            guard let target = content?["redacts"]?.string ?? event["redacts"]?.string, target == room.preview?.eventID else { return }
            room.preview?.body = MatrixEventReader.deleted
        default:
            break
        }
    }

    /// A message content's markup, cut short; nil when it is not a message that reads.
    private func body(of content: JSONValue, sender: String, isReply: Bool, in room: MatrixAccountRoom) -> String? {
        let size = (content["body"]?.string?.utf8.count ?? 0) + (content["formatted_body"]?.string?.utf8.count ?? 0)
        guard size <= MatrixEventSize.eventLimit else { return Self.tooLong }
        let reader = MatrixEventReader(handle: { MatrixMembers.handleBase(MatrixMembers.localpart(of: $0)) },
                                       name: { room.displayName(of: $0) })
        guard let markup = reader.markdown(of: content, sender: sender, isReply: isReply) else { return nil }
        return ShownBody(markup, limit: limits.previewBytes).text
    }
}
