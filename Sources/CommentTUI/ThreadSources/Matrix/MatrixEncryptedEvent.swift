import Foundation
import ThreadModel

/// An `m.room.encrypted` event, which comment-tui cannot read yet: shown in place as a row that
/// says so, and kept by reference (event, session, algorithm) so that it can be decrypted there
/// once the client has the keys, as an edit of that row. The ciphertext itself is not kept: the
/// event id fetches it again.
struct MatrixEncryptedEvent: Equatable, Sendable {
    var eventID: String
    var sender: String
    var created: Date
    /// `m.megolm.v1.aes-sha2` for room messages; whatever the event says (hostile input).
    var algorithm: String?
    /// The Megolm session whose key decrypts it.
    var sessionID: String?
    /// Its relation to another event (`m.relates_to` stays in the clear): the type and the target.
    var relation: (type: String, target: String)?
    /// The event an encrypted edit replaces.
    var replaces: String? { relation?.type == "m.replace" ? relation?.target : nil }
    /// Whether it takes a row of its own: an edit, a reaction or a reference does not (as a
    /// readable one has none: it changes or annotates its target); a reply or a thread's message does.
    var hasRow: Bool { relation.map { !["m.replace", "m.annotation", "m.reference"].contains($0.type) } ?? true }

    /// The row's text in the feed (a sentinel, like `MatrixEventReader.deleted`).
    static let body = "🔒 *encrypted — cannot be read yet*"

    /// Why a message was not decrypted, when decrypting was tried.
    struct Unreadable: Equatable, Sendable {
        /// In words (`WithheldCode.words`, "the sender's key has not arrived", a refusal).
        var reason: String
        /// Whether a key that comes later may still decrypt it.
        var waitsForKey: Bool
        /// The row's text: `unable to decrypt: <reason> (waiting for the key)`.
        var body: String {
            "🔒 unable to decrypt: \(VisibleText.escape(reason))\(waitsForKey ? " (waiting for the key)" : "")"
        }
    }

    /// Why it was not decrypted (nil: not tried, the room's keys are not at hand).
    var unreadable: Unreadable?
    /// The event as received, to decrypt in place once its key comes (nil: not kept).
    var source: JSONValue?

    /// Reads the parts of an `m.room.encrypted` event that stay in the clear; nil without an event id.
    init?(event: JSONValue, sender: String) {
        guard let id = event["event_id"]?.string, !id.isEmpty else { return nil }
        eventID = id
        self.sender = sender
        created = MatrixServerNumber.time(milliseconds: event["origin_server_ts"])
        let content = event["content"]
        algorithm = content?["algorithm"]?.string
        sessionID = content?["session_id"]?.string
        let relatesTo = content?["m.relates_to"]
        if let type = relatesTo?["rel_type"]?.string, let target = relatesTo?["event_id"]?.string { relation = (type, target) }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.eventID == b.eventID && a.sender == b.sender && a.created == b.created && a.algorithm == b.algorithm
            && a.sessionID == b.sessionID && a.relation?.type == b.relation?.type && a.relation?.target == b.relation?.target
            && a.unreadable == b.unreadable
    }

    /// The row shown in its place.
    var comment: Comment { Comment(id: eventID, author: sender, created: created, body: unreadable?.body ?? Self.body) }
}
