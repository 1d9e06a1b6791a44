import Foundation
import MatrixCrypto
import ThreadModel

/// Senders' trust as their comments show it (`SenderTrust`), worked out as their identities are
/// read (`noteIdentities`, under the keys' lock) and kept under a lock of its own, since the UI
/// thread asks for it while a send may hold the keys' lock through its requests. Verified: our
/// own identity once this device is verified (recovery key, or another device of ours); another
/// user's once our user-signing key signed their master key, which is what verifying them does
/// in any client, or once it was verified with emoji here. Anything else is unverified.
extension MatrixRoomKeys {
    /// `user`'s trust as a sender: changed beats everything; nil before their identity was read.
    func senderTrust(of user: String) -> SenderTrust? {
        if identityChanged(of: user) { return .identityChanged }
        return verifiedSenders.withLock { $0.verified[user] }.map { $0 ? .verified : .unverified }
    }

    /// Members of an encrypted room to follow from the next sync on (their devices read, their
    /// trust shown). Takes only a small lock of its own: a room calls it under its own lock.
    func followLater(_ users: some Sequence<String>) {
        verifiedSenders.withLock { $0.toFollow.formUnion(users) }
    }

    /// The users `followLater` gave, handed over once (call locked).
    func membersToFollow() -> Set<String> {
        verifiedSenders.withLock { known in
            defer { known.toFollow = [] }
            return known.toFollow
        }
    }

    /// `user`'s devices as last read, each marked cross-signed or not; nil before they were read.
    func memberDevices(of user: String) -> [MemberDevice]? { verifiedSenders.withLock { $0.devices[user] } }

    /// Notes whether each of `users` is verified, from their `/keys/query` `answer` (call
    /// locked); a change moves the identity count, so rooms draw their headers again.
    func noteTrust(of users: [String], in answer: JSONValue) {
        let own = try? device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys)
        let verifiedHere = (try? device.store.value("verified", in: MatrixVerifications.verifiedKeys))??.users ?? [:]
        var noted: [String: Bool] = [:], devices: [String: [MemberDevice]] = [:]
        for user in users {
            let identity = try? CrossSigningIdentity.fromKeysQuery(answer, userID: user)
            devices[user] = (answer["device_keys"]?[user]?.object ?? [:]).compactMap { id, object in
                guard let keys = try? DeviceKeys(object, userID: user, deviceID: id) else { return nil }
                return MemberDevice(deviceID: id, name: keys.displayName, crossSigned: identity?.hasCrossSigned(deviceKeys: object) ?? false)
            }.sorted { $0.deviceID < $1.deviceID }
            guard let identity else {
                noted[user] = false
                continue
            }
            if user == device.userID {
                noted[user] = device.isCrossSigned
            } else if verifiedHere[user] == identity.master.publicKeyBase64 {
                // Verified with emoji on this device, this very master key (signed or not).
                noted[user] = true
            } else if let own {
                noted[user] = JSONSigning.verify(identity.master.json, userID: device.userID,
                                                 keyID: UnpaddedBase64.encode(own.userSigning.publicKey), publicKey: own.userSigning.publicKey)
            } else {
                noted[user] = false
            }
        }
        let moved = verifiedSenders.withLock { known in
            let before = (known.verified, known.devices)
            known.verified.merge(noted) { _, new in new }
            known.devices.merge(devices) { _, new in new }
            return known.verified != before.0 || known.devices != before.1
        }
        if moved { identities.withLock { $0.changes += 1 } }
    }
}

/// Users' verified flags and their devices' trust, under a lock of their own.
/// `@unchecked Sendable`: `value` is only touched under `lock`.
final class VerifiedSenders: @unchecked Sendable {
    struct Known: Equatable {
        var verified: [String: Bool] = [:]
        var devices: [String: [MemberDevice]] = [:]
        var toFollow: Set<String> = []
    }

    private let lock = NSLock()
    private var value = Known()

    func withLock<Result>(_ body: (inout Known) -> Result) -> Result { lock.withLock { body(&value) } }
}
