import Foundation
import MatrixCrypto
import ThreadModel

/// Opening Olm to-device messages (`m.olm.v1.curve25519-aes-sha2`), as the spec says: the
/// sessions we have with the sending device first, else a new session from a pre-key message,
/// kept only once its first message decrypted (with the one-time key it used removed, in the
/// same write); the plaintext then checked (`OlmPayload`) against us and the sender's known key.
///
/// Opening stores nothing: the session moved on (and the one-time key spent) is kept by the
/// caller in the same write as what the message carried (`keep(_:with:)`). The server sends the
/// message again until a later sync passes it, so a crash between the two would otherwise leave
/// a message that no longer opens and a room key lost for good.
extension MatrixRoomKeys {
    /// Why a room key was not taken, in words (no key bytes).
    struct RoomKeyRefusal: Error, CustomStringConvertible {
        let reason: String
        var description: String { "a room key was not taken: \(reason)" }
    }

    /// Why a to-device message was not opened, in words (no key bytes).
    struct OlmRefusal: Error, CustomStringConvertible {
        let reason: String
        var description: String { "an encrypted to-device message was not opened: \(reason)" }
    }

    /// An Olm message opened, and the state that opening it leaves, not stored yet.
    struct OpenedOlmMessage {
        let payload: OlmPayload
        /// The sending device's Curve25519 key.
        let senderKey: String
        /// The sessions with that device as they are now (the one that decrypted first).
        let sessions: [OlmSession]
        /// The account without the one-time key a new session used; nil: unchanged.
        let account: OlmAccount?
        /// Our outbound sessions, by room, without the sending device (it started a new session).
        let resharing: [String: OutboundRoomSession]
        /// The message's fingerprint, kept among the recently opened (`openedOlmMessages`).
        let fingerprint: String
    }

    /// The fingerprints of the Olm messages opened last (id `recent`, newest last, at most
    /// `openedKept`): the server hands a to-device message out again until a later sync of the
    /// same device passes it (each opening's sync, a verb that never syncs again, a crash), and
    /// opening one twice would find its key spent and take a sound session for a broken one.
    static let openedOlmMessages = CryptoStoreCollection<[String]>("olm-opened")
    static let openedKept = 500

    /// A to-device message already opened and taken: nothing to do, nothing to say.
    struct AlreadyOpened: Error {}

    /// The checked payload of an Olm to-device event, the sender's Curve25519 key and the state
    /// to keep (`keep(_:with:)`); nothing stored. Call locked.
    func openOlm(_ event: JSONValue, sender: String) throws -> OpenedOlmMessage {
        let content = event["content"]
        guard content?["algorithm"]?.string == "m.olm.v1.curve25519-aes-sha2" else { throw OlmRefusal(reason: "not Olm") }
        guard let senderKey = content?["sender_key"]?.string, let senderBytes = UnpaddedBase64.decode(senderKey), senderBytes.count == 32 else {
            throw OlmRefusal(reason: "no sender key")
        }
        guard let ours = content?["ciphertext"]?[device.identityKey], let type = ours["type"]?.int, let body = ours["body"]?.string,
              let message = OlmEncryptedMessage(type: type, body: body) else {
            throw OlmRefusal(reason: "not encrypted for this device")
        }
        let fingerprint = UnpaddedBase64.encode(Array(try Digest.sha256(Array(senderKey.utf8) + message.bytes).prefix(16)))
        if openedRecently.contains(fingerprint) { throw AlreadyOpened() }
        let (plaintext, sessions, account, resharing) = try decrypt(message, sender: sender, senderKey: senderKey, senderBytes: senderBytes)
        let known = knownDevice(of: sender, curve25519: senderKey)
        let payload = try OlmPayload(plaintext: plaintext, sender: sender, ourUserID: device.userID,
                                     ourEd25519: device.fingerprint, knownSenderEd25519: known?.ed25519)
        return OpenedOlmMessage(payload: payload, senderKey: senderKey, sessions: sessions, account: account, resharing: resharing,
                                fingerprint: fingerprint)
    }

    /// Stores the state `opened` left, with what `carried` adds (the room key it brought), in
    /// one write. Call locked.
    func keep(_ opened: OpenedOlmMessage, with carried: (inout CryptoStore.Batch) throws -> Void = { _ in }) throws {
        try device.store.write { batch in
            try batch.put(opened.sessions, id: opened.senderKey, in: Self.olmSessions)
            if let account = opened.account { try batch.put(account, id: "account", in: MatrixDeviceCrypto.accounts) }
            for (room, outbound) in opened.resharing { try batch.put(outbound, id: room, in: Self.outboundSessions) }
            try batch.put(Array((openedRecently + [opened.fingerprint]).suffix(Self.openedKept)), id: "recent", in: Self.openedOlmMessages)
            try carried(&batch)
        }
        openedRecently.append(opened.fingerprint)
        if openedRecently.count > Self.openedKept { openedRecently.removeFirst(openedRecently.count - Self.openedKept) }
        if let account = opened.account { device.replaceAccount(account) }
    }

    /// The sending device as its list says, found by its Curve25519 key.
    func knownDevice(of user: String, curve25519: String) -> DeviceKeys? {
        trackedDevices(of: user).first { $0.curve25519 == curve25519 }
    }

    /// The plaintext of `message` from the device of `senderKey` (of `sender`), the sessions
    /// with it after (updated in place: the list stays newest first by creation, the order keys
    /// are sent by), the account when a new session spent a one-time key, and our outbound
    /// sessions to mark for sending again over a new session. A normal message that no session
    /// decrypts means the sender's session with us is broken: a new one is started from our
    /// side (`recoverSession`).
    private func decrypt(_ message: OlmEncryptedMessage, sender: String, senderKey: String, senderBytes: [UInt8]) throws
        -> ([UInt8], [OlmSession], OlmAccount?, [String: OutboundRoomSession]) {
        var sessions = try device.store.value(senderKey, in: Self.olmSessions) ?? []
        for index in sessions.indices {
            // A pre-key message belongs to the session it was made for, never to another.
            if message.kind == .preKey, !sessions[index].matches(preKeyMessage: message.bytes, theirIdentityKey: senderBytes) { continue }
            var session = sessions[index]
            guard let plaintext = try? session.decrypt(message) else { continue }
            sessions[index] = session
            return (plaintext, sessions, nil, [:])
        }
        guard message.kind == .preKey else {
            var reason = "no session with the sending device decrypts it"
            do {
                if try recoverSession(with: sender, senderKey: senderKey) { reason += "; a new session was started" }
            } catch {
                reason += "; no new session was started: \(error)"
            }
            throw OlmRefusal(reason: reason)
        }
        let (session, plaintext): (OlmSession, [UInt8])
        do {
            (session, plaintext) = try OlmSession.inbound(account: device.account, theirIdentityKey: senderBytes, preKeyMessage: message.bytes)
        } catch {
            throw OlmRefusal(reason: "\(error)")
        }
        // Kept (by the caller) now that it decrypted: the session and the account without its
        // used one-time key, at once, with our room keys marked for sending again over it (the
        // sender may have lost the old session).
        sessions.insert(session, at: 0)
        var account = device.account
        _ = account.removeOneTimeKey(usedBy: session)
        return (plaintext, sessions, account, try outboundSessionsForgetting(sender: sender, senderKey: senderKey))
    }
}
