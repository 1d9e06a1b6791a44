import Foundation
import ThreadModel

/// Reads room events into thread items: messages into comments whose bodies are our Markdown,
/// from `formatted_body` when there is one (never `body`, which may give a spoiler away).
///
/// Events are hostile input. A message whose fields do not read becomes `(unreadable message)`
/// rather than being dropped, so one bad event never stops the sync.
struct MatrixEventReader {
    /// Handles for user ids, for pills that become `@handle` mentions.
    var handle: (String) -> String?
    /// Display names for emotes (`* Marco waves`).
    var name: (String) -> String

    /// The body shown for an event that could not be read.
    static let unreadable = "(unreadable message)"
    /// The body shown for a deleted comment (as a thread file's deleted comments show).
    static let deleted = Comment.deletedBody

    func read(_ event: JSONValue) -> MatrixTimelineItem {
        guard let type = event["type"]?.string, let sender = event["sender"]?.string else { return .ignored }
        let content = event["content"]
        switch type {
        case "m.room.message": return message(event, sender: sender, content: content)
        case "m.room.redaction":
            // Room versions up to 10 put `redacts` at the top; version 11 moved it into the content.
            guard let target = content?["redacts"]?.string ?? event["redacts"]?.string else { return .ignored }
            return .redaction(target: target)
        case "m.room.member":
            guard let userID = event["state_key"]?.string, MatrixMembers.isUserID(userID) else { return .ignored }
            let membership = content?["membership"]?.string
            return .member(userID: userID, name: content?["displayname"]?.string, joined: membership == "join" || membership == "invite")
        case "m.room.encrypted":
            // Redacted, it has no ciphertext left: deleted, as a message would be.
            if event["unsigned"]?["redacted_because"] != nil || content?.object?.isEmpty == true {
                return message(event, sender: sender, content: content)
            }
            return MatrixEncryptedEvent(event: event, sender: sender).map { .encrypted($0) } ?? .ignored
        case "m.room.encryption" where event["state_key"]?.string == "":
            let created = MatrixServerNumber.time(milliseconds: event["origin_server_ts"])
            let row = event["event_id"]?.string.map { MatrixEncryption.switchedOn(eventID: $0, sender: sender, created: created) }
            return .encryptionSwitchedOn(row)
        case "m.reaction":
            return reaction(event, sender: sender, content: content)
        case "m.room.name":
            return content?["name"]?.string.map { .roomName($0) } ?? .ignored
        default:
            return .ignored
        }
    }

    /// A reaction, or nothing for one redacted (its relation is gone) or malformed.
    private func reaction(_ event: JSONValue, sender: String, content: JSONValue?) -> MatrixTimelineItem {
        let relation = content?["m.relates_to"]
        guard event["unsigned"]?["redacted_because"] == nil, let id = event["event_id"]?.string,
              relation?["rel_type"]?.string == "m.annotation", let target = relation?["event_id"]?.string,
              let key = relation?["key"]?.string else { return .ignored }
        let at = MatrixServerNumber.time(milliseconds: event["origin_server_ts"])
        return .reaction(eventID: id, MatrixReactions.Reaction(target: target, key: key, sender: sender, at: at))
    }

    private func message(_ event: JSONValue, sender: String, content: JSONValue?) -> MatrixTimelineItem {
        let id = event["event_id"]?.string ?? ""
        let created = MatrixServerNumber.time(milliseconds: event["origin_server_ts"])
        let transactionID = event["unsigned"]?["transaction_id"]?.string
        guard !id.isEmpty else { return .ignored }
        if event["unsigned"]?["redacted_because"] != nil || content?.object?.isEmpty == true {
            return .comment(Comment(id: id, author: sender, created: created, body: Self.deleted, isDeleted: true), transactionID: transactionID)
        }
        let relation = content?["m.relates_to"]
        if relation?["rel_type"]?.string == "m.replace", let target = relation?["event_id"]?.string {
            guard let replacement = content?["m.new_content"], let body = markdown(of: replacement, sender: sender, isReply: false) else {
                return .ignored
            }
            return .edit(target: target, sender: sender, body: body, at: created)
        }
        // A thread reply's `m.in_reply_to` is only a fallback for clients without threads
        // unless `is_falling_back` is false: then it is a real reply.
        let replyTo = relation?["is_falling_back"]?.bool == true ? nil : relation?["m.in_reply_to"]?["event_id"]?.string
        // A fallback carries an older client's quote all the same: stripped as a reply's is.
        let quotes = relation?["m.in_reply_to"]?["event_id"]?.string != nil
        let body = content.flatMap { markdown(of: $0, sender: sender, isReply: quotes) } ?? Self.unreadable
        let origin = content.flatMap(MatrixImportOrigin.init(content:))
        // Edited as it was in the file, never later than the event itself: a file's time (anyone's
        // text) must not make the author's later edits in the room look older and be ignored.
        let edited = origin?.edited.map { min($0, created) }
        if let origin, !origin.postedAsAuthor {
            // Imported from a thread file: shown as its original author and time.
            return .comment(Comment(id: id, author: origin.author.id, created: origin.created, body: body, edited: edited, replyTo: replyTo),
                            transactionID: transactionID, importedAuthor: origin.author)
        }
        return .comment(Comment(id: id, author: sender, created: created, body: body, edited: edited, replyTo: replyTo),
                        transactionID: transactionID)
    }

    /// The Markdown for a message content, or nil when it is not a message we can show.
    func markdown(of content: JSONValue, sender: String, isReply: Bool) -> String? {
        guard let msgtype = content["msgtype"]?.string, let plain = content["body"]?.string else { return nil }
        var text: String
        if content["format"]?.string == "org.matrix.custom.html", let html = content["formatted_body"]?.string {
            text = MatrixHTMLReader.markdown(fromHTML: html, handleForUserID: handle)
        } else {
            text = MatrixHTMLReader.markdown(fromPlainText: plain, isReply: isReply)
        }
        switch msgtype {
        case "m.text", "m.notice": break
        case "m.emote": text = "\\* " + MatrixHTMLReader.markdown(fromPlainText: name(sender), isReply: false) + " " + text
        // Media and other types: their body is a description or a file name; show it as text.
        default: text = MatrixHTMLReader.markdown(fromPlainText: plain, isReply: false)
        }
        return text
    }
}
