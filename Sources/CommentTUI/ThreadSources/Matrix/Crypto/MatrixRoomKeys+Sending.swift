import Foundation
import MatrixCrypto
import ThreadModel

/// Encrypting our events for a room (`m.megolm.v1.aes-sha2`): one outbound Megolm session per
/// room, its key shared over Olm (`m.room_key`) with every device of the room's members that
/// lacks it, replaced when the room's settings say (`MegolmRotationPolicy`) or when someone it
/// was shared with left or dropped a device.
///
/// What the crash rule asks ("a session key already used to send is never lost"): the session
/// is stored, with our own inbound copy, before its key leaves; the Olm sessions before the
/// to-device messages that use them; and the ratchet, advanced, before the encrypted event is
/// returned to be sent. A crash anywhere then either resends a key or skips an index, never
/// reuses one or loses one.
extension MatrixRoomKeys {
    /// Our outbound session in a room, as kept.
    struct OutboundRoomSession: Codable {
        var session: MegolmOutboundSession
        /// The devices its key went to: user, device id, the device's Curve25519 key.
        var sharedWith: [String: [String: String]] = [:]
        /// Devices told `m.no_olm` for it (no one-time key to reach them), so they are told once.
        var withheldFrom: [String: Set<String>] = [:]
        /// Devices its key was sent to but not known to have reached (the send failed or the
        /// process died): sent again, and counted as having it when someone leaves.
        var mayHave: [String: [String: String]]? = nil
    }

    /// Our outbound Megolm session by room id.
    static let outboundSessions = CryptoStoreCollection<OutboundRoomSession>("megolm-outbound")

    /// Why an event was not encrypted, in words (no key bytes).
    struct EncryptionError: Error, CustomStringConvertible {
        let reason: String
        var description: String { "not encrypted: \(reason)" }
    }

    /// The content of the `m.room.encrypted` event carrying `content` of `type` to `roomID`,
    /// whose members are `members` now and whose `m.room.encryption` content is `settings`; the
    /// key shared first with the devices that lack it. Blocking (key queries and claims,
    /// to-device sends, fsynced writes); throws on a network failure, for the caller to retry.
    ///
    /// One send at a time (`sending`); the keys' lock is held only between requests, so a slow
    /// claim never holds up the sync's thread decrypting every room, nor the screen.
    func encrypt(type: String, content: JSONValue, roomID: String, members: Set<String>, settings: JSONValue,
                 now: Date = Date()) throws -> JSONValue {
        sending.lock()
        defer { sending.unlock() }
        try followMembers(members)
        let policy = MegolmRotationPolicy(roomEncryption: settings)
        let outbound = try lock.withLock { try currentSession(roomID: roomID, members: members, policy: policy, now: now) }
        try share(outbound, roomID: roomID, members: members)
        return try lock.withLock {
            // Read again: the sync's thread may have taken a device out of `sharedWith` meanwhile.
            // (Only a send replaces the session, and sends go one at a time.)
            guard var latest = try device.store.value(roomID, in: Self.outboundSessions),
                  latest.session.sessionID == outbound.session.sessionID else {
                throw EncryptionError(reason: "the room's session was replaced while its key was shared")
            }
            let plaintext = try CanonicalJSON.encode(["type": .string(type), "content": content, "room_id": .string(roomID)])
            let message = try latest.session.encrypt(plaintext)
            // The ratchet moved on is on disk before the message leaves: its index is never reused.
            try device.store.put(latest, id: roomID, in: Self.outboundSessions)
            var encrypted: [String: JSONValue] = [
                "algorithm": "m.megolm.v1.aes-sha2", "sender_key": .string(device.identityKey), "device_id": .string(device.deviceID),
                "session_id": .string(latest.session.sessionID), "ciphertext": .string(message.base64),
            ]
            // The relation stays in the clear, so the server can thread and aggregate it (spec).
            if let relation = content["m.relates_to"] { encrypted["m.relates_to"] = relation }
            return .object(encrypted)
        }
    }

    /// The members' device lists, asked about now where not known or out of date (the
    /// requests outside the keys' lock); stored only when that changed them (they are the
    /// biggest record in a big room, and sends are many).
    private func followMembers(_ members: Set<String>) throws {
        var changed = lock.withLock { () -> Bool in
            let untracked = members.subtracting(tracker.tracked)
            if !untracked.isEmpty { tracker.track(untracked) }
            return !untracked.isEmpty
        }
        // Bounded: each round asks up to 250 users; a user the server keeps failing on stays
        // out of date and gets the key with the devices known of it.
        for _ in 0 ..< (members.count / 250 + 2) {
            let users = lock.withLock { tracker.nextQuery() }
            if users.isEmpty { break }
            changed = true
            do {
                let answer = try client.queryKeys(users: users)
                lock.withLock {
                    _ = tracker.queryAnswered(users, answer: answer)
                    noteIdentities(of: users, in: answer)
                }
            } catch {
                lock.withLock { tracker.queryFailed(users) }
                throw error
            }
        }
        if changed { try lock.withLock { try device.store.put(tracker, id: "tracker", in: Self.deviceLists) } }
    }

    /// The room's session to encrypt with: the one kept, unless it is due for rotation or one it
    /// was shared with is gone; else a new one, stored with our inbound copy (so we read our own
    /// messages) before anything is encrypted with it. Call locked.
    private func currentSession(roomID: String, members: Set<String>, policy: MegolmRotationPolicy, now: Date) throws -> OutboundRoomSession {
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded())
        if let kept = try device.store.value(roomID, in: Self.outboundSessions),
           !policy.shouldRotate(kept.session, nowMilliseconds: milliseconds), !someoneLeft(kept, members: members) {
            return kept
        }
        let fresh = OutboundRoomSession(session: try MegolmOutboundSession(random: &device.random, createdAtMilliseconds: milliseconds))
        let own = StoredRoomKey(session: MegolmInboundSession(sessionKey: try fresh.session.sessionKey()), senderKey: device.identityKey)
        try device.store.write { batch in
            try batch.put(fresh, id: roomID, in: Self.outboundSessions)
            try batch.put(own, id: CryptoStoreCollection<StoredRoomKey>.id(roomID, fresh.session.sessionID), in: Self.megolmSessions)
            // Uploaded to the key backup after the send (`+BackupUpload`), even once rotated away.
            try batch.put(roomID, id: CryptoStoreCollection<StoredRoomKey>.id(roomID, fresh.session.sessionID), in: Self.backupPending)
        }
        return fresh
    }

    /// Whether a user the session went to has left the room, or one of their devices is gone or
    /// has other keys now: that device must not read what comes next. Call locked.
    private func someoneLeft(_ outbound: OutboundRoomSession, members: Set<String>) -> Bool {
        outbound.sharedWith.merging(outbound.mayHave ?? [:]) { $0.merging($1) { first, _ in first } }.contains { user, devices in
            guard members.contains(user) else { return true }
            // A user whose list is not known now (asked and failed) is not taken as gone.
            guard let known = tracker.devices[user] else { return false }
            return devices.contains { id, curve in known[id]?.curve25519 != curve }
        }
    }

    /// The devices of `members` that lack the session's key (ours excepted). Call locked.
    private func devicesLacking(_ outbound: OutboundRoomSession, members: Set<String>) -> [DeviceKeys] {
        members.sorted().flatMap { user in
            (tracker.devices[user] ?? [:]).values.sorted { $0.deviceID < $1.deviceID }.filter { device in
                if user == self.device.userID, device.deviceID == self.device.deviceID { return false }
                if outbound.withheldFrom[user]?.contains(device.deviceID) == true { return false }
                return outbound.sharedWith[user]?[device.deviceID] != device.curve25519
            }
        }
    }

    /// Sends the session's key, at its current index, to the devices that lack it: over the
    /// Olm session we have with each, else one made from a claimed one-time key; a device
    /// with no key to claim is told `m.no_olm`. Who has it is recorded in the stored session
    /// once the server took the messages. The requests go outside the keys' lock.
    private func share(_ outbound: OutboundRoomSession, roomID: String, members: Set<String>) throws {
        let (lacking, missing) = try lock.withLock { () throws -> ([DeviceKeys], [DeviceKeys]) in
            let lacking = devicesLacking(outbound, members: members)
            let missing = try lacking.filter { try device.store.value($0.curve25519, in: Self.olmSessions)?.first == nil }
            return (lacking, missing)
        }
        guard !lacking.isEmpty else { return }
        let claimed = missing.isEmpty ? nil : try claimKeys(for: missing)
        let (messages, withheld, reached) = try lock.withLock { () throws -> ([String: [String: JSONValue]], [String: [String: JSONValue]], Set<String>) in
            var sessions: [String: OlmSession] = [:]
            for target in lacking {
                if let newest = try device.store.value(target.curve25519, in: Self.olmSessions)?.first { sessions[target.curve25519] = newest }
            }
            if let claimed {
                for (curve, made) in try self.sessions(fromClaim: claimed, for: missing) where sessions[curve] == nil { sessions[curve] = made }
            }
            let prepared = try olmMessages(carrying: outbound, roomID: roomID, to: lacking, over: &sessions)
            // Before they leave: the devices about to get the key count as having it if they go.
            if var latest = try device.store.value(roomID, in: Self.outboundSessions), latest.session.sessionID == outbound.session.sessionID {
                for target in lacking where prepared.2.contains(target.curve25519) {
                    latest.mayHave = latest.mayHave ?? [:]
                    latest.mayHave?[target.userID, default: [:]][target.deviceID] = target.curve25519
                }
                try device.store.put(latest, id: roomID, in: Self.outboundSessions)
            }
            return prepared
        }
        if !messages.isEmpty {
            try client.sendToDevice(type: "m.room.encrypted", transactionID: Self.transactionID(), messages: messages)
        }
        if !withheld.isEmpty {
            try client.sendToDevice(type: "m.room_key.withheld", transactionID: Self.transactionID(), messages: withheld)
        }
        try lock.withLock {
            // Recorded on the session as stored now (the sync's thread may have changed it).
            guard var latest = try device.store.value(roomID, in: Self.outboundSessions),
                  latest.session.sessionID == outbound.session.sessionID else { return }
            for target in lacking {
                if reached.contains(target.curve25519) {
                    latest.sharedWith[target.userID, default: [:]][target.deviceID] = target.curve25519
                    latest.mayHave?[target.userID]?[target.deviceID] = nil
                    if latest.mayHave?[target.userID]?.isEmpty == true { latest.mayHave?[target.userID] = nil }
                } else {
                    latest.withheldFrom[target.userID, default: []].insert(target.deviceID)
                }
            }
            try device.store.put(latest, id: roomID, in: Self.outboundSessions)
        }
    }

    /// The to-device messages carrying the session's key to each of `targets` over `sessions`
    /// (moved on as they encrypt, and stored before they leave), the `m.no_olm` notices for
    /// those without a session, and the Curve25519 keys of those reached. Call locked.
    private func olmMessages(carrying outbound: OutboundRoomSession, roomID: String, to targets: [DeviceKeys],
                             over sessions: inout [String: OlmSession])
        throws -> ([String: [String: JSONValue]], [String: [String: JSONValue]], Set<String>) {
        let key: JSONValue = [
            "algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(roomID),
            "session_id": .string(outbound.session.sessionID), "session_key": .string(try outbound.session.sessionKey().base64),
        ]
        var messages: [String: [String: JSONValue]] = [:]
        var withheld: [String: [String: JSONValue]] = [:]
        for target in targets {
            guard var session = sessions[target.curve25519] else {
                withheld[target.userID, default: [:]][target.deviceID] = [
                    "algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(roomID), "session_id": .string(outbound.session.sessionID),
                    "sender_key": .string(device.identityKey), "from_device": .string(device.deviceID), "code": "m.no_olm",
                    "reason": "no one-time key could be claimed for this device",
                ]
                continue
            }
            let plaintext = try OlmPayload.plaintext(type: "m.room_key", content: key, sender: device.userID, senderDevice: device.deviceID,
                                                     senderEd25519: device.fingerprint, recipient: target.userID,
                                                     recipientEd25519: target.ed25519)
            let message = try session.encrypt(plaintext, random: &device.random)
            sessions[target.curve25519] = session
            messages[target.userID, default: [:]][target.deviceID] = olmContent(message, to: target)
        }
        // The Olm sessions as they will be after these messages, on disk before they leave: one
        // we had stays where it is (newest first by creation), a new one goes first.
        try device.store.write { batch in
            for (curve, session) in sessions {
                var kept = (try device.store.value(curve, in: Self.olmSessions)) ?? []
                if let at = kept.firstIndex(where: { $0.sessionID == session.sessionID }) {
                    kept[at] = session
                } else {
                    kept.insert(session, at: 0)
                }
                try batch.put(kept, id: curve, in: Self.olmSessions)
            }
        }
        return (messages, withheld, Set(sessions.keys))
    }

    /// A new outbound Olm session to each device, by its Curve25519 key, from a one-time (or
    /// fallback) key claimed for it, its signature by the device checked. Devices without a
    /// key to claim are left out. Not stored: the caller stores them before using them. Call locked.
    func claimSessions(for targets: [DeviceKeys]) throws -> [String: OlmSession] {
        try sessions(fromClaim: claimKeys(for: targets), for: targets)
    }

    /// One one-time (or fallback) key claimed for each device (`/keys/claim`): the answer's
    /// `one_time_keys`. A request: made outside the keys' lock where it can be.
    func claimKeys(for targets: [DeviceKeys]) throws -> JSONValue? {
        try client.claimKeys(Dictionary(grouping: targets, by: \.userID).mapValues { $0.map(\.deviceID) })["one_time_keys"]
    }

    /// A new outbound Olm session to each of `targets` from the keys `claimed` for it, each
    /// key's signature by its device checked. Call locked.
    func sessions(fromClaim claimed: JSONValue?, for targets: [DeviceKeys]) throws -> [String: OlmSession] {
        var found: [String: OlmSession] = [:]
        for target in targets {
            guard let keys = claimed?[target.userID]?[target.deviceID]?.object,
                  let signed = keys.first(where: { $0.key.hasPrefix("signed_curve25519:") })?.value,
                  let ed25519 = UnpaddedBase64.decode(target.ed25519),
                  JSONSigning.verify(signed, userID: target.userID, keyID: target.deviceID, publicKey: ed25519),
                  let oneTimeKey = signed["key"]?.string.flatMap(UnpaddedBase64.decode),
                  let identityKey = UnpaddedBase64.decode(target.curve25519) else { continue }
            found[target.curve25519] = try OlmSession.outbound(account: device.account, theirIdentityKey: identityKey,
                                                               theirOneTimeKey: oneTimeKey, random: &device.random)
        }
        return found
    }

    /// The content of the `m.room.encrypted` to-device event carrying `message` to `target`.
    func olmContent(_ message: OlmEncryptedMessage, to target: DeviceKeys) -> JSONValue {
        [
            "algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(device.identityKey),
            "ciphertext": .object([target.curve25519: ["type": .number(Double(message.kind.rawValue)), "body": .string(message.body)]]),
        ]
    }

    /// A new to-device transaction id: random, so a retry of the whole share is a new send
    /// (it carries new Olm messages) and never collides with an earlier one.
    static func transactionID() -> String { "ct-keys-" + UUID().uuidString }
}
