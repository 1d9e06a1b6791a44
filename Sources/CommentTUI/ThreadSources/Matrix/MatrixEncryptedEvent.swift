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
    /// The event an encrypted edit replaces (`m.relates_to` stays in the clear): such an edit has
    /// no row of its own, as a readable edit has none.
    var replaces: String?

    /// The row's text in the feed (a sentinel, like `MatrixEventReader.deleted`).
    static let body = "🔒 *encrypted — cannot be read yet*"

    /// Reads the parts of an `m.room.encrypted` event that stay in the clear; nil without an event id.
    init?(event: JSONValue, sender: String) {
        guard let id = event["event_id"]?.string, !id.isEmpty else { return nil }
        eventID = id
        self.sender = sender
        created = Date(timeIntervalSince1970: Double(event["origin_server_ts"]?.int ?? 0) / 1000)
        let content = event["content"]
        algorithm = content?["algorithm"]?.string
        sessionID = content?["session_id"]?.string
        let relation = content?["m.relates_to"]
        replaces = relation?["rel_type"]?.string == "m.replace" ? relation?["event_id"]?.string : nil
    }

    /// The row shown in its place.
    var comment: Comment { Comment(id: eventID, author: sender, created: created, body: Self.body) }
}
