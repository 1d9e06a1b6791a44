import Foundation
import MatrixCrypto
import ThreadModel

/// Opening Olm to-device messages (`m.olm.v1.curve25519-aes-sha2`), as the spec says: the
/// sessions we have with the sending device first, else a new session from a pre-key message,
/// kept only once its first message decrypted (with the one-time key it used removed, in the
/// same write); the plaintext then checked (`OlmPayload`) against us and the sender's known key.
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

    /// The checked payload of an Olm to-device event, and the sender's Curve25519 key. Call locked.
    func openOlm(_ event: JSONValue, sender: String) throws -> (OlmPayload, String) {
        let content = event["content"]
        guard content?["algorithm"]?.string == "m.olm.v1.curve25519-aes-sha2" else { throw OlmRefusal(reason: "not Olm") }
        guard let senderKey = content?["sender_key"]?.string, let senderBytes = UnpaddedBase64.decode(senderKey), senderBytes.count == 32 else {
            throw OlmRefusal(reason: "no sender key")
        }
        guard let ours = content?["ciphertext"]?[device.identityKey], let type = ours["type"]?.int, let body = ours["body"]?.string,
              let message = OlmEncryptedMessage(type: type, body: body) else {
            throw OlmRefusal(reason: "not encrypted for this device")
        }
        let plaintext = try decrypt(message, sender: sender, senderKey: senderKey, senderBytes: senderBytes)
        let known = knownDevice(of: sender, curve25519: senderKey)
        let payload = try OlmPayload(plaintext: plaintext, sender: sender, ourUserID: device.userID,
                                     ourEd25519: device.fingerprint, knownSenderEd25519: known?.ed25519)
        return (payload, senderKey)
    }

    /// The sending device as its list says, found by its Curve25519 key.
    func knownDevice(of user: String, curve25519: String) -> DeviceKeys? {
        trackedDevices(of: user).first { $0.curve25519 == curve25519 }
    }

    /// The plaintext of `message` from the device of `senderKey` (of `sender`), the session it
    /// used stored. A normal message that no session decrypts means the sender's session with
    /// us is broken: a new one is started from our side (`recoverSession`).
    private func decrypt(_ message: OlmEncryptedMessage, sender: String, senderKey: String, senderBytes: [UInt8]) throws -> [UInt8] {
        var sessions = try device.store.value(senderKey, in: Self.olmSessions) ?? []
        for index in sessions.indices {
            // A pre-key message belongs to the session it was made for, never to another.
            if message.kind == .preKey, !sessions[index].matches(preKeyMessage: message.bytes, theirIdentityKey: senderBytes) { continue }
            var session = sessions[index]
            guard let plaintext = try? session.decrypt(message) else { continue }
            // Updated in place: the list stays newest first by creation, the order keys are sent by.
            sessions[index] = session
            try device.store.put(sessions, id: senderKey, in: Self.olmSessions)
            return plaintext
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
        // Kept now that it decrypted: the session and the account without its used one-time key, at once,
        // with our room keys marked for sending again over it (the sender may have lost the old session).
        sessions.insert(session, at: 0)
        let resharing = try outboundSessionsForgetting(sender: sender, senderKey: senderKey)
        try device.keep(session: session, among: sessions, senderKey: senderKey, in: Self.olmSessions) { batch in
            for (room, outbound) in resharing { try batch.put(outbound, id: room, in: Self.outboundSessions) }
        }
        return plaintext
    }
}

extension MatrixDeviceCrypto {
    /// Stores a new inbound Olm session (`sessions`, it first, under `senderKey`) and the account
    /// without the one-time key it used, and what `also` adds, in one write.
    func keep(session: OlmSession, among sessions: [OlmSession], senderKey: String, in collection: CryptoStoreCollection<[OlmSession]>,
              also: (inout CryptoStore.Batch) throws -> Void = { _ in }) throws {
        var changed = account
        _ = changed.removeOneTimeKey(usedBy: session)
        try store.write { batch in
            try batch.put(sessions, id: senderKey, in: collection)
            try batch.put(changed, id: "account", in: Self.accounts)
            try also(&batch)
        }
        replaceAccount(changed)
    }
}
