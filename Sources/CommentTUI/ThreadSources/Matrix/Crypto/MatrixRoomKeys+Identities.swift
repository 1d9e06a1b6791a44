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
            identities.withLock { $0 = (changed, $0.changes + 1) }
        }
    }

    /// Whether `user`'s cross-signing identity changed since it was first seen. Never waits for
    /// the keys' lock (a send may hold it through network requests): the UI thread asks it.
    func identityChanged(of user: String) -> Bool { identities.withLock { $0.users.contains(user) } }

    /// Moves on each time the set of changed identities does: a room looks again when it moved.
    var identityChangeCount: Int { identities.withLock { $0.changes } }

    /// The users whose identity changed (written under the keys' lock, read under its own).
    var changedUsers: Set<String> { identities.withLock { $0.users } }
}

/// The users whose identity changed and a count of the changes, under a lock of their own.
/// `@unchecked Sendable`: `value` is only touched under `lock`.
final class IdentityChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (users: Set<String>, changes: Int)

    init(users: Set<String>) { value = (users, 0) }

    func withLock<Result>(_ body: (inout (users: Set<String>, changes: Int)) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
