import Foundation
import MatrixCrypto

/// The account's key backup as one run sees it: the version checked once (trusted, refused
/// with its reason, or none), the rooms' sessions looked up in it, our sessions uploaded to it,
/// and whether a refusal was told yet. Under a lock of its own: restores run off the rooms'
/// threads, uploads on the sending one. `@unchecked Sendable`: every field is behind `lock`.
final class KeyBackupState: @unchecked Sendable {
    /// What the backup is for this run.
    enum Status {
        /// A backup our key opens and our trusted identity signed.
        case trusted(MegolmBackupVersion, MegolmBackupKey)
        /// A backup there, but not to be used: why, in words.
        case refused(String)
        /// The account has no backup.
        case absent
    }

    private let lock = NSLock()
    /// The status found for the key with this public key (a key entered later is checked anew).
    private var found: (publicKey: String, status: Status)?
    /// Per room, the sessions looked up in the backup already (or being looked up).
    private var lookedUp: [String: Set<String>] = [:]
    /// Per room, the backed-up sessions refused (said once).
    private var refused: [String: Set<String>] = [:]
    /// Whether a refusal was said in this run.
    private var refusalTold = false
    /// One restore or upload at a time, so two rooms never fetch the same answer twice.
    let work = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }

    /// The status found for `publicKey`, if it was checked in this run.
    func status(for publicKey: String) -> Status? {
        lock.withLock { found?.publicKey == publicKey ? found?.status : nil }
    }

    func remember(_ status: Status, for publicKey: String) {
        lock.withLock { found = (publicKey, status) }
    }

    /// Forgets the status and the sessions looked up: the server said the version used is gone
    /// or no longer the current one, so the next restore or upload reads the current version.
    func forget() {
        lock.withLock {
            found = nil
            lookedUp = [:]
        }
    }

    /// `sessions` of `roomID` not looked up yet, marked as looked up from now.
    func claim(_ sessions: Set<String>, of roomID: String) -> Set<String> {
        lock.withLock {
            let fresh = sessions.subtracting(lookedUp[roomID] ?? [])
            lookedUp[roomID, default: []].formUnion(fresh)
            return fresh
        }
    }

    /// Of the backed-up sessions of `roomID` that were refused, those not said before.
    func firstRefusals(_ sessions: Set<String>, of roomID: String) -> Set<String> {
        lock.withLock {
            let fresh = sessions.subtracting(refused[roomID] ?? [])
            refused[roomID, default: []].formUnion(fresh)
            return fresh
        }
    }

    /// Where the keys of events decrypted in this run came from, when not from their sender.
    private var origins: [String: RoomKeyOrigin] = [:]

    /// Notes that event `eventID` was decrypted with a key of `origin`.
    func note(_ origin: RoomKeyOrigin, of eventID: String) {
        lock.withLock { origins[eventID] = origin }
    }

    /// Where the key that decrypted `eventID` came from (nil: from its sender, or not decrypted).
    func origin(of eventID: String) -> RoomKeyOrigin? {
        lock.withLock { origins[eventID] }
    }

    /// Gives back `sessions` of `roomID` (their lookup failed: the next try asks again).
    func release(_ sessions: Set<String>, of roomID: String) {
        lock.withLock { lookedUp[roomID]?.subtract(sessions) }
    }

    /// `reason` the first time a refusal is to be said in this run, nil after.
    func tellOnce(_ reason: String) -> String? {
        lock.withLock {
            defer { refusalTold = true }
            return refusalTold ? nil : reason
        }
    }
}
