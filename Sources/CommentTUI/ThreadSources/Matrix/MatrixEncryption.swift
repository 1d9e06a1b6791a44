import Foundation
import ThreadModel

/// What comment-tui says about a room with end-to-end encryption switched on where this
/// device's keys are not open: it never sends plaintext there, so nothing is sent.
enum MatrixEncryption {
    /// Why a new comment is refused (the draft stays).
    static let refusal = SendFailure(.encryptedRoom, "the room is end-to-end encrypted and this device's encryption keys are not open")
    /// Why a comment on its way is held (it stays in the outbox, for a client that can).
    static let held = SendFailure(.encryptedRoom, refusal.message + "; it waits in the outbox")
    /// The room's lasting notice: the header and the empty composer say it.
    static let notice = "🔒 end-to-end encrypted: this device's keys are not open, so nothing is sent here"

    /// The row in the feed where encryption was switched on.
    static func switchedOn(eventID: String, sender: String, created: Date) -> Comment {
        Comment(id: eventID, author: sender, created: created,
                body: "🔒 *switched on end-to-end encryption*")
    }
}
