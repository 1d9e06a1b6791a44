import Foundation
import MatrixCrypto
import ThreadModel

/// Senders checked against their cross-signing identity, trust on first use: the first master
/// key seen for a user is pinned (`CrossSigningTrust`, in the store); another one later is a
/// changed identity, shown loudly on their comments until the pin is accepted anew (entering
/// our recovery key accepts our own).
extension MatrixRoomKeys {
    /// The users whose identity changed since it was pinned (id `changed`).
    static let changedIdentities = CryptoStoreCollection<Set<String>>("changed-identities")

    /// Takes the identities a `/keys/query` answer for `users` publishes: pins the first seen,
    /// notes a changed one (and clears one back at its pin). An identity whose signatures do not
    /// check counts as none. Call locked.
    func noteIdentities(of users: [String], in answer: JSONValue) {
        var trust = (try? device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust)) ?? CrossSigningTrust()
        var changed = changedUsers
        for user in users {
            guard let identity = try? CrossSigningIdentity.fromKeysQuery(answer, userID: user) else { continue }
            switch trust.observe(identity) {
            case .changed: changed.insert(user)
            case .unchanged: changed.remove(user)
            case .firstSeen: break
            }
        }
        let trustChanged = trust != ((try? device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust)) ?? CrossSigningTrust())
        guard trustChanged || changed != changedUsers else { return }
        try? device.store.write { batch in
            try batch.put(trust, id: "trust", in: MatrixDeviceCrypto.crossSigningTrust)
            try batch.put(changed, id: "changed", in: Self.changedIdentities)
        }
        if changed != changedUsers {
            changedUsers = changed
            identityChanges += 1
        }
    }

    /// Whether `user`'s cross-signing identity changed since it was first seen.
    func identityChanged(of user: String) -> Bool { lock.withLock { changedUsers.contains(user) } }

    /// Moves on each time the set of changed identities does: a room looks again when it moved.
    var identityChangeCount: Int { lock.withLock { identityChanges } }
}
