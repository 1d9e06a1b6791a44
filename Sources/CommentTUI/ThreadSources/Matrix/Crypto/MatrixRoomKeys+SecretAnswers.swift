import Foundation
import MatrixCrypto
import ThreadModel

/// Answering our own devices' `m.secret.request` (the asking side is `+SecretSharing`): a secret
/// this device holds goes, in an `m.secret.send` over Olm, only to a device of ours that our
/// pinned identity cross-signed, and only while this device is verified itself. Requests are
/// answered, or refused, after the sync that brought them (`+SecretInbox`), outside the keys'
/// lock: nothing waits longer, so a `request_cancellation` (another device answered first) has
/// nothing to stop. A device not verified yet asks again later.
extension MatrixRoomKeys {
    /// Why a secret request was not answered, in words (never the secret).
    struct SecretRequestRefusal: Error, CustomStringConvertible {
        let reason: String
        var description: String { "a secret request was not answered: \(reason)" }
    }

    /// Takes an `m.secret.request` from `sender` (call unlocked: the keys the server publishes
    /// are asked for, and the answer sent, outside the lock): answers it when every check
    /// passes (true), stays silent when it is ours or asks for a secret we do not hold, throws
    /// why it was refused otherwise.
    @discardableResult
    func answerSecretRequest(_ content: JSONValue?, sender: String) throws -> Bool {
        guard sender == device.userID else { throw SecretRequestRefusal(reason: "it came from another user") }
        guard let content, let action = content["action"]?.string, let requestID = content["request_id"]?.string,
              let requester = content["requesting_device_id"]?.string else {
            throw SecretRequestRefusal(reason: "it is not laid out as a secret request")
        }
        // Our own requests reach us too (they go to all our devices); a cancellation stops nothing.
        guard requester != device.deviceID, action == "request" else { return false }
        guard let name = content["name"]?.string.flatMap(SharedSecret.Name.init(rawValue:)) else {
            throw SecretRequestRefusal(reason: "it asks for a secret this client does not share")
        }
        let held = try lock.withLock { () -> String? in
            guard let secret = device.heldSecret(name) else { return nil }
            guard device.isCrossSigned else { throw SecretRequestRefusal(reason: "this device is not verified itself") }
            return secret
        }
        guard let secret = held else { return false }
        let answer = try client.queryKeys(users: [device.userID])
        let identity: CrossSigningIdentity
        do {
            identity = try lock.withLock { try ownTrustedIdentity(in: answer) }
        } catch let refusal as SharedSecret.Refusal {
            throw SecretRequestRefusal(reason: refusal.reason)
        }
        guard let object = answer["device_keys"]?[device.userID]?[requester],
              let target = try? DeviceKeys(object, userID: device.userID, deviceID: requester) else {
            throw SecretRequestRefusal(reason: "the requesting device is not one of ours")
        }
        guard identity.hasCrossSigned(deviceKeys: object) else {
            throw SecretRequestRefusal(reason: "the requesting device is not verified by our cross-signing identity")
        }
        try sendOverOlm(type: "m.secret.send", content: ["request_id": .string(requestID), "secret": .string(secret)], to: target)
        return true
    }

    /// Sends one to-device message of `type` to `target` over Olm: the newest session we have
    /// with it, else one from a key claimed for it; the session stored before the message
    /// leaves. Call unlocked: the claim and the send are made outside the keys' lock.
    func sendOverOlm(type: String, content: JSONValue, to target: DeviceKeys) throws {
        let known = try lock.withLock { try device.store.value(target.curve25519, in: Self.olmSessions)?.first }
        let claimed = known == nil ? try claimKeys(for: [target]) : nil
        let sealed = try lock.withLock { () -> JSONValue in
            var sessions = try device.store.value(target.curve25519, in: Self.olmSessions) ?? []
            let isNew = sessions.isEmpty
            guard var session = try sessions.first ?? self.sessions(fromClaim: claimed, for: [target])[target.curve25519] else {
                throw SecretRequestRefusal(reason: "no one-time key could be claimed for the requesting device")
            }
            let plaintext = try OlmPayload.plaintext(type: type, content: content, sender: device.userID, senderDevice: device.deviceID,
                                                     senderEd25519: device.fingerprint, recipient: target.userID,
                                                     recipientEd25519: target.ed25519)
            let message = try session.encrypt(plaintext, random: &device.random)
            if isNew { sessions.insert(session, at: 0) } else { sessions[0] = session }
            try device.store.put(sessions, id: target.curve25519, in: Self.olmSessions)
            return olmContent(message, to: target)
        }
        try client.sendToDevice(type: "m.room.encrypted", transactionID: Self.transactionID(),
                                messages: [target.userID: [target.deviceID: sealed]])
    }
}
