import Foundation
import ThreadModel

/// A room with end-to-end encryption switched on gets no plaintext from us: new comments are
/// refused (the draft stays) and those on their way are held in the outbox, from the moment the
/// switch is known (a sync, the offline copy, the opening) until the client can encrypt.
extension MatrixThreadSource {
    public var sendingHeld: String? { locked { timeline.isEncrypted } ? MatrixEncryption.notice : nil }

    public func isPlaceholder(_ commentID: String) -> Bool { locked { timeline.placeholders.contains(commentID) } }

    /// Whether nothing may be sent to the room now: the room's state is read before every send
    /// (one small request), since a sync may not have brought a switch yet (its long poll, an
    /// outage, a copy opened offline). Throws when it cannot be read: the caller retries, as for
    /// the send itself, and never sends without knowing. A switch learned here is kept in the
    /// offline copy at once.
    func holdsSending() throws -> Bool {
        if locked({ timeline.isEncrypted }) { return true }
        guard try client.stateContent(room: roomID, type: "m.room.encryption") != nil else { return false }
        let updates = locked { timeline.switchEncryptionOn() }
        if !updates.isEmpty { saveCache() }
        report(updates)
        return true
    }

    /// Keeps a comment on its way from going: it stays in the outbox, and the app shows why.
    func hold(_ transactionID: String) {
        locked { _ = sending.removeValue(forKey: transactionID) }
        report([.sendFailed(commentID: transactionID, reason: MatrixEncryption.held)])
    }

    /// Throws for a verb that would post to an encrypted room; `known`: the switch was seen (an
    /// event read), so it is only recorded.
    func refuseIfEncrypted(known: Bool = false) throws {
        if known { report(locked { timeline.switchEncryptionOn() }) }
        if try known || holdsSending() {
            throw MatrixError(.server(status: 0, errcode: nil), MatrixEncryption.refusal.message + "; nothing was posted")
        }
    }
}
