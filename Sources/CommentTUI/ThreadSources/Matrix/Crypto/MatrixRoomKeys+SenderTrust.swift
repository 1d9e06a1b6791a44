import Foundation
import MatrixCrypto
import ThreadModel

/// Senders' trust as their comments show it (`SenderTrust`), worked out as their identities are
/// read (`noteIdentities`, under the keys' lock) and kept under a lock of its own, since the UI
/// thread asks for it while a send may hold the keys' lock through its requests. Verified: our
/// own identity once this device is verified (recovery key, or another device of ours); another
/// user's once our user-signing key signed their master key, which is what verifying them does
/// in any client. Anything else with an identity, or without one, is unverified.
extension MatrixRoomKeys {
    /// `user`'s trust as a sender: changed beats everything; nil before their identity was read.
    func senderTrust(of user: String) -> SenderTrust? {
        if identityChanged(of: user) { return .identityChanged }
        return verifiedSenders.withLock { $0[user] }.map { $0 ? .verified : .unverified }
    }

    /// Notes whether each of `users` is verified, from their `/keys/query` `answer` (call
    /// locked); a change moves the identity count, so rooms draw their headers again.
    func noteTrust(of users: [String], in answer: JSONValue) {
        let own = try? device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys)
        var noted: [String: Bool] = [:]
        for user in users {
            guard let identity = try? CrossSigningIdentity.fromKeysQuery(answer, userID: user) else {
                noted[user] = false
                continue
            }
            if user == device.userID {
                noted[user] = device.isCrossSigned
            } else if let own {
                noted[user] = JSONSigning.verify(identity.master.json, userID: device.userID,
                                                 keyID: UnpaddedBase64.encode(own.userSigning.publicKey), publicKey: own.userSigning.publicKey)
            } else {
                noted[user] = false
            }
        }
        let moved = verifiedSenders.withLock { known in
            let before = known
            known.merge(noted) { _, new in new }
            return known != before
        }
        if moved { identities.withLock { $0.changes += 1 } }
    }
}

/// Users' verified flags, under a lock of their own.
/// `@unchecked Sendable`: `value` is only touched under `lock`.
final class VerifiedSenders: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [String: Bool] = [:]

    func withLock<Result>(_ body: (inout [String: Bool]) -> Result) -> Result { lock.withLock { body(&value) } }
}
