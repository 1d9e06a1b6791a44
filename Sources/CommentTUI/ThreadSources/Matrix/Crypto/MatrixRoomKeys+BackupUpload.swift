import Foundation
import MatrixCrypto
import ThreadModel

/// Our own Megolm sessions uploaded to the account's key backup, so our other devices (and a
/// new one) read what this one sent: each session is noted as pending when it is made
/// (`+Sending`), in the same write, and uploaded after the send, once a backup `trustedBackup`
/// accepts is there; to another, never, and that is said once.
extension MatrixRoomKeys {
    /// Our sessions not yet in the key backup: their room, by their `megolmSessions` id.
    static let backupPending = CryptoStoreCollection<String>("megolm-backup-pending")

    /// Uploads our sessions pending for the trusted backup. Returns what went wrong, in words
    /// (a refusal once per run). Call unlocked: it waits on the network.
    @discardableResult
    func backUpOwnSessions() -> [String] {
        backup.work.lock()
        defer { backup.work.unlock() }
        guard !lock.withLock({ device.store.ids(in: Self.backupPending).isEmpty }) else { return [] }
        let usable = usableBackup()
        guard let trusted = usable.found else { return usable.said }
        let upload: (body: [String: JSONValue], ids: [String])
        do {
            upload = try lock.withLock { try pendingUploads(key: trusted.key) }
        } catch {
            return ["room keys were not prepared for your key backup: \(error)"]
        }
        guard !upload.ids.isEmpty else { return [] }
        do {
            try client.uploadRoomKeys(.object(upload.body), version: trusted.version.version)
            try lock.withLock {
                try device.store.write { batch in
                    for id in upload.ids { batch.remove(id: id, from: Self.backupPending) }
                }
            }
            return []
        } catch {
            forgetBackupIfReplaced(after: error)
            return ["room keys were not uploaded to your key backup: \(error)"]
        }
    }

    /// The upload body of the pending sessions (at most 500: the rest go with the next call),
    /// and their store ids; a pending id whose session is gone is dropped. Call locked.
    private func pendingUploads(key: MegolmBackupKey) throws -> (body: [String: JSONValue], ids: [String]) {
        var body: [String: JSONValue] = [:]
        var ids: [String] = []
        for id in device.store.ids(in: Self.backupPending).prefix(500) {
            ids.append(id)
            guard let room = try device.store.value(id, in: Self.backupPending),
                  let own = try device.store.value(id, in: Self.megolmSessions) else { continue }
            let sessionID = own.session.sessionID
            let session = MegolmBackupSession(sessionKey: try own.session.export(at: own.session.firstKnownIndex),
                                              senderKey: device.identityKey, senderClaimedEd25519: device.fingerprint)
            let sealed = try key.encrypt(session, random: &device.random)
            var sessions = body[room]?["sessions"]?.object ?? [:]
            sessions[sessionID] = [
                "first_message_index": .number(Double(own.session.firstKnownIndex)), "forwarded_count": 0,
                "is_verified": true, "session_data": sealed.json,
            ]
            body[room] = ["sessions": .object(sessions)]
        }
        return (body, ids)
    }
}
