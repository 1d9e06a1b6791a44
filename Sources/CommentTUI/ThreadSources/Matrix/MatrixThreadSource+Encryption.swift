import Foundation
import ThreadModel

/// A room with end-to-end encryption switched on gets no plaintext from us: new comments are
/// refused (the draft stays) and those on their way are held in the outbox, from the moment the
/// switch is known (a sync, the offline copy, the opening) until the client can encrypt.
extension MatrixThreadSource {
    public var sendingHeld: String? { locked { timeline.isEncrypted } ? MatrixEncryption.notice : nil }

    /// Whether nothing may be sent to the room now. The syncs say when encryption is switched
    /// on; where they may not have said yet, the room's state is read first: opened from the
    /// offline copy (which may predate the switch), or after the sync lost the server (a switch
    /// during an outage, which a send could beat the sync's catching up to). Throws when it
    /// cannot be read: the caller retries, as for the send itself.
    func holdsSending() throws -> Bool {
        let known = locked { (encrypted: timeline.isEncrypted, current: encryptionChecked) }
        if known.encrypted { return true }
        if known.current { return false }
        let encrypted = try client.stateContent(room: roomID, type: "m.room.encryption") != nil
        let updates = locked { () -> [ThreadUpdate] in
            encryptionChecked = true
            return encrypted ? timeline.switchEncryptionOn() : []
        }
        report(updates)
        return encrypted
    }

    /// Keeps a comment on its way from going: it stays in the outbox, and the app shows why.
    func hold(_ transactionID: String) {
        locked { _ = sending.removeValue(forKey: transactionID) }
        report([.sendFailed(commentID: transactionID, reason: MatrixEncryption.held)])
    }

    /// Throws for a verb that would post to an encrypted room.
    func refuseIfEncrypted() throws {
        if try holdsSending() { throw MatrixError(.server(status: 0, errcode: nil), MatrixEncryption.refusal + "; nothing was posted") }
    }
}
