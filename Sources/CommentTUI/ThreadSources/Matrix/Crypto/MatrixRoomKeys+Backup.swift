import Foundation
import MatrixCrypto
import ThreadModel

/// Server-side key backup (`m.megolm_backup.v1.curve25519-aes-sha2`), as Element keeps it: the
/// backup key comes from secret storage with the recovery key; the current backup version is
/// used only when its public key is our key's and our trusted identity (our pinned master key,
/// or this device) signed its `auth_data`. Room keys are restored lazily, a room's at a time,
/// when its rows wait for keys (`MatrixThreadSource+KeyBackup`); they are marked as from the
/// backup (weaker authenticity). Our own new sessions are uploaded to it.
extension MatrixRoomKeys {
    /// The backup's private key, from secret storage (id `key`).
    static let backupKey = CryptoStoreCollection<MegolmBackupKey>("megolm-backup-key")
    /// Our own sessions uploaded, by backup version: `room|session` store ids.
    static let backedUpSessions = CryptoStoreCollection<Set<String>>("megolm-backed-up")

    /// The words, said once per run, for a backup refused.
    static func backupNotUsed(_ refusal: MegolmBackupRefusal) -> String {
        "your key backup is not used (no keys restored from it nor uploaded to it): \(refusal.reason)"
    }

    /// The backup to use in this run; nil when there is none or we hold no key for it.
    /// Throws the refusal (in words) when there is one we must not use, or a request failed.
    /// Call unlocked (a request, the first time).
    func trustedBackup() throws -> (version: MegolmBackupVersion, key: MegolmBackupKey)? {
        guard let key = lock.withLock({ try? device.store.value("key", in: Self.backupKey) }) else { return nil }
        let status: KeyBackupState.Status
        if let known = backup.status(for: key.publicKeyBase64) {
            status = known
        } else {
            status = try checkBackup(key: key)
            backup.remember(status, for: key.publicKeyBase64)
        }
        switch status {
        case .trusted(let version, let key): return (version, key)
        case .refused(let reason): throw MegolmBackupRefusal(reason)
        case .absent: return nil
        }
    }

    /// The server's current backup against `key` and our trusted identity.
    private func checkBackup(key: MegolmBackupKey) throws -> KeyBackupState.Status {
        guard let answer = try client.currentBackupVersion() else { return .absent }
        do {
            let version = try MegolmBackupVersion(json: answer)
            try version.checkTrusted(key: key, signers: backupSigners())
            return .trusted(version, key)
        } catch let refusal as MegolmBackupRefusal {
            return .refused(refusal.reason)
        }
    }

    /// Forgets the backup checked in this run when `error` is the server saying its version is
    /// gone (`M_NOT_FOUND`) or replaced (`M_WRONG_ROOM_KEYS_VERSION`): the next restore or
    /// upload reads the current version and checks it anew.
    func forgetBackupIfReplaced(after error: any Error) {
        guard let error = error as? MatrixError, let code = error.errcode,
              code == "M_NOT_FOUND" || code == "M_WRONG_ROOM_KEYS_VERSION" else { return }
        backup.forget()
    }

    /// The backup to restore from or upload to, or, when there is none to use, what to say
    /// (a refusal once per run, a failed read each time).
    func usableBackup() -> (found: (version: MegolmBackupVersion, key: MegolmBackupKey)?, said: [String]) {
        do {
            return (try trustedBackup(), [])
        } catch let refusal as MegolmBackupRefusal {
            return (nil, backup.tellOnce(Self.backupNotUsed(refusal)).map { [$0] } ?? [])
        } catch {
            return (nil, ["the key backup could not be read: \(error)"])
        }
    }

    /// Who may sign a backup we use: our master key while it is the pinned one, and this device.
    func backupSigners() -> MegolmBackupVersion.Signers {
        lock.withLock {
            let trust = (try? device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust)) ?? CrossSigningTrust()
            let pinned = changedUsers.contains(device.userID) ? nil : trust.pinnedMasterKeys[device.userID].flatMap(UnpaddedBase64.decode)
            return MegolmBackupVersion.Signers(userID: device.userID, masterKey: pinned, deviceID: device.deviceID,
                                               deviceKey: device.account.ed25519Key)
        }
    }

    /// Restores from the backup the sessions that rows of `roomID` wait for (all the room's
    /// sessions the backup holds, in one request), unless they were looked up in this run.
    /// Returns what went wrong, in words: a refusal of the backup once per run, a failed request,
    /// sessions that did not open. Call unlocked: it waits on the network.
    /// - Parameter everything: the room's whole backup even when no row waits (the benchmark's timing).
    func restoreFromBackup(roomID: String, everything: Bool = false) -> [String] {
        backup.work.lock()
        defer { backup.work.unlock() }
        var waiting = lock.withLock { Set(wanted.union(wantedEarlier).filter { $0.roomID == roomID }.map(\.sessionID)) }
        if everything { waiting.insert("") }
        guard !waiting.isEmpty else { return [] }
        let usable = usableBackup()
        guard let trusted = usable.found else { return usable.said }
        let claimed = backup.claim(waiting, of: roomID)
        guard !claimed.isEmpty else { return [] }
        let answer: JSONValue
        do {
            answer = try client.backedUpRoomKeys(roomID: roomID, version: trusted.version.version)
        } catch {
            backup.release(claimed, of: roomID)
            forgetBackupIfReplaced(after: error)
            return ["the room's keys could not be read from your key backup: \(error)"]
        }
        // What the answer holds needs no asking again in this run; a session wanted later that
        // it lacks (uploaded since) asks anew.
        _ = backup.claim(Set((answer["sessions"]?.object ?? [:]).keys), of: roomID)
        lock.withLock { wantedEarlier = wantedEarlier.filter { $0.roomID != roomID || !claimed.contains($0.sessionID) } }
        return importBackedUp(answer, roomID: roomID, key: trusted.key)
    }

    /// Keeps the sessions of a room's backup answer that open and beat the copy kept (a key
    /// from the sender itself stays), marked as from the backup. The decryption outside the
    /// keys' lock (a room of many senders has thousands of sessions; rooms decrypt meanwhile),
    /// the comparison with what is kept and the one write under it. Call unlocked.
    private func importBackedUp(_ answer: JSONValue, roomID: String, key: MegolmBackupKey) -> [String] {
        var refused: [String: String] = [:]
        var opened: [(id: String, key: StoredRoomKey)] = []
        for (sessionID, entry) in answer["sessions"]?.object ?? [:] {
            do {
                let id = CryptoStoreCollection<StoredRoomKey>.id(roomID, sessionID)
                let kept = try lock.withLock { try device.store.value(id, in: Self.megolmSessions) }
                // Not decrypted when ours starts as early already (the index only saves work: it is checked below).
                if let kept, let first = entry["first_message_index"]?.int, first >= kept.session.firstKnownIndex { continue }
                guard let data = entry["session_data"] else { throw MegolmBackupRefusal("a backed-up session has no session_data") }
                let backedUp = try key.decrypt(sessionData: data)
                let session = MegolmInboundSession(exportedKey: backedUp.sessionKey)
                guard session.sessionID == sessionID else { throw MegolmBackupRefusal("a backed-up session is filed under another session's id") }
                opened.append((id, StoredRoomKey(session: session, senderKey: backedUp.senderKey,
                                                 claimedSigningKey: backedUp.senderClaimedEd25519, origin: .backup)))
            } catch {
                refused[sessionID] = "\(error)"
            }
        }
        var problems: [String] = []
        lock.withLock {
            do {
                // Compared under the lock: a key from its sender may have come meanwhile.
                // A key from its sender keeps its standing and claimed signing key (merged).
                let taken = try opened.compactMap { id, stored -> (String, StoredRoomKey)? in
                    guard let kept = try device.store.value(id, in: Self.megolmSessions) else { return (id, stored) }
                    guard kept.senderKey == stored.senderKey, kept.session.compare(stored.session) == .better else { return nil }
                    return (id, kept.improved(by: stored, origin: .backup))
                }
                guard !taken.isEmpty else { return }
                try device.store.write { batch in
                    for (id, stored) in taken {
                        try batch.put(stored, id: id, in: Self.megolmSessions)
                        batch.remove(id: id, from: Self.withheldKeys)
                    }
                }
                arrivals += 1
            } catch {
                problems.append("keys restored from your key backup were not kept: \(error)")
            }
        }
        let newly = backup.firstRefusals(Set(refused.keys), of: roomID)
        if let first = newly.sorted().first, let reason = refused[first] {
            problems.append("\(newly.count) of this room's keys in your key backup were refused: \(reason)")
        }
        return problems
    }

    /// Where a room's key came from, when not from its sender (nil: straight from the sender,
    /// or not known).
    func origin(roomID: String, sessionID: String) -> RoomKeyOrigin? {
        lock.withLock { try? device.store.value(CryptoStoreCollection<StoredRoomKey>.id(roomID, sessionID), in: Self.megolmSessions)?.origin }
    }
}
