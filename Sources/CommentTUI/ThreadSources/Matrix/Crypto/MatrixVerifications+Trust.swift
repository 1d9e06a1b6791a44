import Foundation
import MatrixCrypto
import ThreadModel

/// What a finished verification leaves: the keys it checked marked verified in the crypto
/// store, and, when we hold our cross-signing keys, the signature that tells our other devices
/// and other users: our other device signed with our self-signing key, another user's master key
/// with our user-signing key (`/keys/signatures/upload`).
extension MatrixVerifications {
    /// The keys interactive verification checked (id `verified`).
    static let verifiedKeys = CryptoStoreCollection<VerifiedKeys>("sas-verified")

    /// Users and devices verified here, with the key that was verified: a later, other key is not.
    struct VerifiedKeys: Codable, Equatable {
        /// User id → master key (unpadded base64).
        var users: [String: String] = [:]
        /// `<user id> <device id>` → Ed25519 key (unpadded base64).
        var devices: [String: String] = [:]
    }

    /// Marks what `entry` verified and signs it when we can; returns what was done, in words.
    func applyTrust(_ entry: Entry, keys: MatrixRoomKeys) -> String {
        let machine = entry.machine
        let user = machine.theirUserID
        guard let deviceID = machine.theirDeviceID else { return "nothing was verified" }
        let deviceKey = machine.verifiedKeys["ed25519:\(deviceID)"]
        let master = entry.theirIdentity.flatMap { identity in
            machine.verifiedKeys["ed25519:\(identity.master.publicKeyBase64)"] != nil ? identity : nil
        }
        let own = user == keys.device.userID
        var signature: JSONValue?
        var said: [String] = []
        let held: CrossSigningKeys? = keys.lock.withLock {
            try? keys.device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys)
        }
        do {
            try keys.lock.withLock {
                var verified = try keys.device.store.value("verified", in: Self.verifiedKeys) ?? VerifiedKeys()
                var trust = try keys.device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust) ?? CrossSigningTrust()
                var changed = keys.changedUsers
                if let deviceKey { verified.devices["\(user) \(deviceID)"] = deviceKey }
                if let master {
                    verified.users[user] = master.master.publicKeyBase64
                    // Verifying the identity is accepting it, even one that replaced an earlier pin.
                    trust.acceptChange(to: master)
                    changed.remove(user)
                }
                try keys.device.store.write { batch in
                    try batch.put(verified, id: "verified", in: Self.verifiedKeys)
                    try batch.put(trust, id: "trust", in: MatrixDeviceCrypto.crossSigningTrust)
                    try batch.put(changed, id: "changed", in: MatrixRoomKeys.changedIdentities)
                }
                if changed != keys.changedUsers { keys.identities.withLock { $0 = (changed, $0.changes + 1) } }
            }
            said.append(own ? "device \(deviceID) marked verified here" : "\(user) marked verified here")
        } catch {
            return "verified, but not kept: \(error)"
        }
        if own, deviceKey != nil, let held, let device = entry.theirDevices[deviceID] {
            signature = try? held.signaturesUploadBody(deviceKeys: device.signedObject)
        } else if !own, let master, let held {
            if let signed = try? JSONSigning.sign(master.master.json, userID: held.userID,
                                                  keyID: UnpaddedBase64.encode(held.userSigning.publicKey), key: held.userSigning) {
                signature = [user: .object([master.master.publicKeyBase64: signed])]
            }
        }
        if let signature {
            do {
                try keys.client.uploadSignatures(signature)
                said.append(own ? "signed with your self-signing key" : "signed with your user-signing key")
            } catch {
                said.append("the signature did not go up: \(error)")
            }
        }
        return said.joined(separator: "; ")
    }

    /// Whether `user`'s master key `masterKey` was verified here.
    func isVerified(user: String, masterKey: String) -> Bool {
        guard let keys else { return false }
        return keys.lock.withLock { (try? keys.device.store.value("verified", in: Self.verifiedKeys))??.users[user] == masterKey }
    }

    /// Whether device `deviceID` of `user` with Ed25519 key `key` was verified here.
    func isVerified(device deviceID: String, of user: String, key: String) -> Bool {
        guard let keys else { return false }
        return keys.lock.withLock { (try? keys.device.store.value("verified", in: Self.verifiedKeys))??.devices["\(user) \(deviceID)"] == key }
    }

    /// The screen's value of `entry`.
    func summary(_ entry: Entry) -> MatrixVerification {
        let machine = entry.machine
        let stage: MatrixVerification.Stage
        var words: String
        var code: VerificationCancelCode?
        // Ids and codes come from the network: escaped, so none reaches the terminal as a control.
        let who = VisibleText.escape(machine.theirDeviceID.map { "\(machine.theirUserID) (\($0))" } ?? machine.theirUserID)
        switch machine.phase {
        case .requested: (stage, words) = (.waitingForThem, "waiting for \(who) to accept")
        case .incomingRequest, .incomingStart: (stage, words) = (.incoming, "\(who) wants to verify")
        case .ready, .started, .accepted, .keySent: (stage, words) = (.exchangingKeys, "exchanging keys with \(who)")
        case .comparing: (stage, words) = (.comparing, "compare the emoji with \(who)")
        case .confirmed: (stage, words) = (.confirmed, "waiting for \(who) to confirm")
        case .waitingForDone: (stage, words) = (.confirmed, "waiting for \(who) to finish")
        case .done: (stage, words) = (.verified, "\(who) is verified")
        case .cancelled(let cancellation):
            code = cancellation.code
            stage = .cancelled
            // Ours in our own words (a refusal says why); theirs by its code, their reason being any text.
            words = cancellation.byUs ? VisibleText.escape(cancellation.reason) : "\(who) cancelled: \(VisibleText.escape(cancellation.code.words))"
        }
        let sas = machine.shortAuthenticationString
        let showsSas = stage == .comparing || stage == .confirmed
        return MatrixVerification(id: machine.transport.flowID, userID: machine.theirUserID, deviceID: machine.theirDeviceID,
                                  deviceName: machine.theirDeviceID.flatMap { entry.theirDevices[$0]?.displayName }.map { VisibleText.escape($0) },
                                  isOwnDevice: machine.theirUserID == machine.ourUserID, weRequested: machine.weRequested, stage: stage,
                                  emoji: showsSas && machine.agreedForms.contains("emoji") ? sas?.emoji ?? [] : [],
                                  decimals: showsSas ? sas?.decimals ?? [] : [], words: words, cancelCode: code,
                                  trustNote: entry.trustNote?.isEmpty == false ? entry.trustNote : nil)
    }
}
