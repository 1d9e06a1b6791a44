import Foundation
import ThreadModel

/// What one room event means to the thread.
enum MatrixTimelineItem: Sendable {
    /// A comment; `transactionID` is set on the echo of one we sent. An imported comment's
    /// author is the original one (`importedAuthor`), not the member who posted it.
    case comment(Comment, transactionID: String?, importedAuthor: User? = nil)
    /// A new text for an earlier comment by the same sender.
    case edit(target: String, sender: String, body: String, at: Date)
    /// An earlier event was deleted.
    case redaction(target: String)
    /// A member joined, left or changed their display name.
    case member(userID: String, name: String?, joined: Bool)
    /// An event comment-tui cannot read yet: a row in its place, kept by reference.
    case encrypted(MatrixEncryptedEvent)
    /// End-to-end encryption was switched on (`m.room.encryption`), with the row that says so
    /// where it happened; nil for the state alone (no event id).
    case encryptionSwitchedOn(Comment?)
    /// A reaction (`m.reaction`, `m.annotation`) to an earlier event, with its key.
    case reaction(eventID: String, MatrixReactions.Reaction)
    /// The room was renamed.
    case roomName(String)
    /// Nothing the thread shows (other state, our own edits' relations…).
    case ignored
}
