import Foundation
import ThreadModel

/// A room with end-to-end encryption switched on gets no plaintext from us: with the account's
/// keys (`MatrixRoomKeys`) our events go encrypted; without them, new comments are refused (the
/// draft stays) and those on their way are held in the outbox, from the moment the switch is
/// known (a sync, the offline copy, the opening) until the client can encrypt.
extension MatrixThreadSource {
    public var sendingHeld: String? { locked { timeline.isEncrypted && timeline.decryption == nil } ? MatrixEncryption.notice : nil }

    public var isEndToEndEncrypted: Bool { locked { timeline.isEncrypted } }

    public func isPlaceholder(_ commentID: String) -> Bool { locked { timeline.placeholders.contains(commentID) } }

    public func senderIdentityChanged(_ userID: String) -> Bool {
        // The keys' lock is taken after ours is let go: the sync's thread takes them the other way.
        let keys = locked { timeline.isEncrypted ? timeline.decryption?.keys : nil }
        return keys?.identityChanged(of: userID) ?? false
    }

    /// The event to send for `content` of `type`: itself in a clear room, encrypted in an
    /// encrypted one; nil when it must be held (encrypted, and no keys to encrypt with).
    func outgoing(_ content: JSONValue, type: String = "m.room.message") throws -> (type: String, content: JSONValue)? {
        guard let settings = try encryptionSettings() else { return (type, content) }
        guard let keys = locked({ timeline.decryption?.keys }) else { return nil }
        let members = Set(try client.joinedMembers(room: roomID).keys)
        let encrypted = try keys.encrypt(type: type, content: content, roomID: roomID, members: members, settings: settings)
        backUpOwnSessionsLater()
        return ("m.room.encrypted", encrypted)
    }

    /// The room's `m.room.encryption` content when encryption is on (empty when only our copy
    /// knows it), nil when it is off. The room's state is read before every send (one small
    /// request), since a sync may not have brought a switch yet (its long poll, an outage, a
    /// copy opened offline); it also gives the rotation settings. Throws when it cannot be
    /// read: the caller retries, as for the send itself, and never sends without knowing. A
    /// switch learned here is kept in the offline copy at once.
    func encryptionSettings() throws -> JSONValue? {
        let settings = try client.stateContent(room: roomID, type: "m.room.encryption", timeout: sendTimeout)
        guard settings != nil || locked({ timeline.isEncrypted }) else { return nil }
        let updates = locked { timeline.switchEncryptionOn() }
        if !updates.isEmpty { saveCache() }
        report(updates)
        return settings ?? [:]
    }

    /// Whether what is never encrypted (a redaction) must wait: the room is encrypted and we
    /// have no keys for it, so nothing of ours goes there yet.
    func holdsSending() throws -> Bool {
        if locked({ timeline.isEncrypted && timeline.decryption == nil }) { return true }
        return try encryptionSettings() != nil && locked { timeline.decryption == nil }
    }

    /// Keeps a comment on its way from going: it stays in the outbox, and the app shows why.
    func hold(_ transactionID: String) {
        locked { _ = sending.removeValue(forKey: transactionID) }
        report([.sendFailed(commentID: transactionID, reason: MatrixEncryption.held)])
    }

    /// Throws for a verb that posts in the clear (an import) when the room is encrypted;
    /// `known`: the switch was seen (an event read), so it is only recorded.
    func refuseIfEncrypted(known: Bool = false) throws {
        if known { report(locked { timeline.switchEncryptionOn() }) }
        if try known || encryptionSettings() != nil {
            throw MatrixError(.server(status: 0, errcode: nil), MatrixEncryption.refusal.message + "; nothing was posted")
        }
    }
}
