import Foundation
import MatrixCrypto
import ThreadModel

/// Secrets asked of our own other devices (Client-Server API, "Sharing"), as Element does after
/// a device is verified: once this device counts as cross-signed and lacks the cross-signing
/// seeds or the backup key, it sends `m.secret.request` to all our devices; an `m.secret.send`
/// that answers is taken only over Olm, from a device of ours that our pinned identity signed,
/// for a request of ours, and only when the secret is the key the server publishes. Once taken,
/// the request is cancelled (`request_cancellation`) at the devices that did not answer yet.
/// The answering side is `+SecretAnswers`.
extension MatrixRoomKeys {
    /// A secret asked for in this run: its request id (the same for repeats) and when.
    struct SecretRequest {
        let id: String
        var count: Int
        var at: Date
    }

    /// Sends a request for each secret this device lacks and has not asked for lately, and the
    /// cancellations of requests answered, outside the keys' lock (call unlocked). Nothing is
    /// asked before this device is cross-signed: our other devices would not answer it. Asked
    /// as often, and as spaced, as room keys (a device of ours may not see our signature yet).
    func requestMissingSecrets(problems: inout [String]) {
        acceptOwnVerificationOnceSigned(problems: &problems)
        let (toAsk, toCancel) = lock.withLock { () -> ([(SharedSecret.Name, String)], [String]) in
            let cancel = secretCancellations
            secretCancellations = []
            guard device.isCrossSigned else { return ([], cancel) }
            let now = clock()
            let ask = device.missingSecrets.filter { name in
                guard let asked = secretRequests[name] else { return true }
                return asked.count < Self.keyRequestAttempts
                    && now.timeIntervalSince(asked.at) >= Self.keyRequestRepeat * Double(1 << (asked.count - 1))
            }
            return (ask.map { ($0, secretRequests[$0]?.id ?? "ct-secret-" + UUID().uuidString) }, cancel)
        }
        for id in toCancel {
            do {
                try sendSecretRequest(["action": "request_cancellation", "request_id": .string(id)])
            } catch {
                problems.append("a secret request was not cancelled: \(error)")
            }
        }
        for (name, id) in toAsk {
            do {
                try sendSecretRequest(["action": "request", "name": .string(name.rawValue), "request_id": .string(id)])
                lock.withLock { secretRequests[name] = SecretRequest(id: id, count: (secretRequests[name]?.count ?? 0) + 1, at: clock()) }
            } catch {
                problems.append("a secret was not asked for: \(error)")
                return
            }
        }
    }

    /// How often the server is asked whether another of our devices signed this one after an
    /// emoji verification, and the wait before the first repeat (doubled each time): the other
    /// device uploads its signature as its verification ends, maybe after ours did.
    static let ownSignatureAttempts = 6
    static let ownSignatureRepeat: TimeInterval = 2

    /// After an emoji verification with another of our devices verified our master key here
    /// (`MatrixVerifications.verifiedKeys`), this device counts as cross-signed once the server
    /// shows it signed by that identity (`acceptVerificationByOwnDevice`): it then asks for the
    /// secrets. Asked a few times, spaced, per run; call unlocked.
    private func acceptOwnVerificationOnceSigned(problems: inout [String]) {
        let masterKey = lock.withLock { () -> String? in
            guard !device.isCrossSigned,
                  let masterKey = (try? device.store.value("verified", in: MatrixVerifications.verifiedKeys))??.users[device.userID] else { return nil }
            let now = clock()
            if let checked = ownSignatureChecks {
                guard checked.count < Self.ownSignatureAttempts,
                      now.timeIntervalSince(checked.at) >= Self.ownSignatureRepeat * Double(1 << (checked.count - 1)) else { return nil }
            }
            ownSignatureChecks = (count: (ownSignatureChecks?.count ?? 0) + 1, at: now)
            return masterKey
        }
        guard let masterKey else { return }
        do {
            // Asked outside the keys' lock: rooms decrypt meanwhile.
            let answer = try client.queryKeys(users: [device.userID])
            try lock.withLock {
                guard !device.isCrossSigned else { return }
                try device.acceptVerificationByOwnDevice(masterKey: masterKey, keysQuery: answer)
            }
        } catch let refusal as RecoveryKeyVerification.Refusal where refusal == MatrixDeviceCrypto.notSignedYet {
            return
        } catch {
            problems.append("this device's verification was not taken: \(error)")
        }
    }

    /// One `m.secret.request` (unencrypted, as the spec has it: it carries no secret) to all
    /// our devices.
    private func sendSecretRequest(_ fields: [String: JSONValue]) throws {
        var content = fields
        content["requesting_device_id"] = .string(device.deviceID)
        try client.sendToDevice(type: "m.secret.request", transactionID: "ct-secret-" + UUID().uuidString,
                                messages: [device.userID: ["*": .object(content)]])
    }

    /// Takes an `m.secret.send` that came over Olm from `senderKey` (call unlocked: the keys the
    /// server publishes are asked for outside the lock; the Olm state already kept). Throws,
    /// keeping nothing, unless every check passes.
    func takeSecret(_ payload: OlmPayload, sender: String, senderKey: String) throws {
        guard sender == device.userID else { throw SharedSecret.Refusal("it came from another user") }
        guard let requestID = payload.content["request_id"]?.string, let secret = payload.content["secret"]?.string else {
            throw SharedSecret.Refusal("it is not laid out as a shared secret")
        }
        let asked = try lock.withLock { () -> SharedSecret.Name? in
            guard let name = secretRequests.first(where: { $0.value.id == requestID })?.key else {
                throw SharedSecret.Refusal("this device did not ask for it")
            }
            // Another of our devices answered first: the same key (checked then), nothing to do.
            return device.heldSecret(name) == nil ? name : nil
        }
        guard let name = asked else { return }
        let answer = try client.queryKeys(users: [device.userID])
        let identity = try lock.withLock { try ownTrustedIdentity(in: answer) }
        guard let sending = ownDevice(curve25519: senderKey, in: answer) else {
            throw SharedSecret.Refusal("the sending device is not one of ours")
        }
        guard identity.hasCrossSigned(deviceKeys: sending) else {
            throw SharedSecret.Refusal("the sending device is not verified by our cross-signing identity")
        }
        let checked = try SharedSecret(name: name, secret: secret, identity: identity,
                                       backupPublicKey: name == .backup ? client.publishedBackupPublicKey() : nil)
        try lock.withLock {
            guard device.heldSecret(name) == nil else { return }
            try device.keep(checked)
            secretCancellations.append(requestID)
        }
    }

    /// Our identity as the server publishes it, refused unless it is the one we pinned (the one
    /// our recovery key opened, or a verification with another of our devices showed). Call locked.
    func ownTrustedIdentity(in answer: JSONValue) throws -> CrossSigningIdentity {
        guard let identity = try CrossSigningIdentity.fromKeysQuery(answer, userID: device.userID) else {
            throw SharedSecret.Refusal("our account has no cross-signing identity")
        }
        let trust = try device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust) ?? CrossSigningTrust()
        guard let pinned = trust.pinnedMasterKeys[device.userID],
              ConstantTime.equal(Array(pinned.utf8), Array(identity.master.publicKeyBase64.utf8)) else {
            throw SharedSecret.Refusal("our identity on the server is not the one this device verified")
        }
        return identity
    }

    /// The keys object of our device whose Curve25519 identity key is `curve25519`, from
    /// `answer`, its ids and its own signature checked (`DeviceKeys`).
    func ownDevice(curve25519: String, in answer: JSONValue) -> JSONValue? {
        let devices = answer["device_keys"]?[device.userID]?.object ?? [:]
        return devices.first { id, object in
            (try? DeviceKeys(object, userID: device.userID, deviceID: id))?.curve25519 == curve25519
        }?.value
    }
}
