import Foundation
import MatrixCrypto
import ThreadModel

/// Keys asked of our own other devices (Client-Server API, "Key requests"): once this device is
/// cross-signed (the recovery key entered), a room message whose key is missing or was withheld
/// is asked for with `m.room_key_request`, sent to our own devices only; an
/// `m.forwarded_room_key` that answers is taken only from a device of ours that our
/// cross-signing identity signed, and only for a session we asked for. Element does the same
/// for a newly verified session, so history its other sessions could read becomes readable here.
extension MatrixRoomKeys {
    /// A session whose key a room needs: where it was seen and the device that made it.
    struct WantedKey: Hashable {
        let roomID: String
        let sessionID: String
        let senderKey: String
    }

    /// Why a forwarded key was not taken, in words (no key bytes).
    struct ForwardedKeyRefusal: Error, CustomStringConvertible {
        let reason: String
        var description: String { "a forwarded room key was not taken: \(reason)" }
    }

    /// Notes that a room event's key is wanted (call locked): asked for at the next sync answer
    /// once this device is cross-signed.
    func want(roomID: String, sessionID: String, senderKey: String?) {
        guard let senderKey else { return }
        wanted.insert(WantedKey(roomID: roomID, sessionID: sessionID, senderKey: senderKey))
    }

    /// How often a key is asked for in one run, and the wait before the first repeat (doubled
    /// each time): a device of ours may not know yet that we are verified (its device list
    /// catches up a moment later) and refuse the first request.
    static let keyRequestAttempts = 4
    static let keyRequestRepeat: TimeInterval = 5

    /// Sends a request for each wanted key not asked for lately, the requests outside the keys'
    /// lock (call unlocked). Nothing is asked before this device is cross-signed: our other
    /// devices would not answer it. A key that came meanwhile is wanted no more.
    func requestWantedKeys(problems: inout [String]) {
        let toAsk = lock.withLock { () -> [WantedKey] in
            wanted = wanted.filter { key in
                (try? device.store.value(CryptoStoreCollection<StoredRoomKey>.id(key.roomID, key.sessionID), in: Self.megolmSessions)) == nil
            }
            guard !wanted.isEmpty, device.isCrossSigned else { return [] }
            let now = clock()
            return wanted.filter { key in
                guard let asked = requested[key] else { return true }
                return asked.count < Self.keyRequestAttempts
                    && now.timeIntervalSince(asked.at) >= Self.keyRequestRepeat * Double(1 << (asked.count - 1))
            }.sorted { ($0.roomID, $0.sessionID) < ($1.roomID, $1.sessionID) }
        }
        for key in toAsk {
            let content: JSONValue = [
                "action": "request", "requesting_device_id": .string(device.deviceID), "request_id": .string(Self.requestID(for: key)),
                "body": ["algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(key.roomID), "session_id": .string(key.sessionID),
                         "sender_key": .string(key.senderKey)],
            ]
            do {
                // One to-device send per request: each has its own content, to all our devices.
                try client.sendToDevice(type: "m.room_key_request", transactionID: "ct-ask-" + UUID().uuidString,
                                        messages: [device.userID: ["*": content]])
                lock.withLock { requested[key] = (count: (requested[key]?.count ?? 0) + 1, at: clock()) }
            } catch {
                problems.append("a room key was not asked for: \(error)")
                return
            }
        }
    }

    /// A stable request id for a key: a repeated request (a later run) cancels nothing.
    private static func requestID(for key: WantedKey) -> String {
        let digest = (try? Digest.sha256(Array("\(key.roomID)|\(key.sessionID)|\(key.senderKey)".utf8))) ?? []
        return "ct" + UnpaddedBase64.encode(Array(digest.prefix(12))).replacingOccurrences(of: "/", with: "_")
    }

    /// Takes an `m.forwarded_room_key` that came over Olm from `forwarderKey` (call locked).
    func takeForwardedKey(_ payload: OlmPayload, sender: String, forwarderKey: String) throws {
        guard sender == device.userID else { throw ForwardedKeyRefusal(reason: "it came from another user") }
        let content = payload.content
        guard content["algorithm"]?.string == "m.megolm.v1.aes-sha2", let roomID = content["room_id"]?.string,
              let sessionID = content["session_id"]?.string, let senderKey = content["sender_key"]?.string,
              let exported = content["session_key"]?.string else {
            throw ForwardedKeyRefusal(reason: "it is not laid out as a forwarded Megolm key")
        }
        let key = WantedKey(roomID: roomID, sessionID: sessionID, senderKey: senderKey)
        guard requested[key] != nil else { throw ForwardedKeyRefusal(reason: "this device did not ask for it") }
        try checkOwnVerifiedDevice(curve25519: forwarderKey)
        let session = try MegolmInboundSession(exportedKey: exported)
        guard session.sessionID == sessionID else { throw ForwardedKeyRefusal(reason: "its session id is not its key's") }
        let id = CryptoStoreCollection<StoredRoomKey>.id(roomID, sessionID)
        var stored = StoredRoomKey(session: session, senderKey: senderKey,
                                   claimedSigningKey: content["sender_claimed_ed25519_key"]?.string, origin: .forwarded)
        if let kept = try device.store.value(id, in: Self.megolmSessions) {
            guard kept.senderKey == senderKey, kept.session.compare(session) == .better else { return }
            stored = kept.improved(by: stored, origin: .forwarded)
        }
        try device.store.write { batch in
            try batch.put(stored, id: id, in: Self.megolmSessions)
            batch.remove(id: id, from: Self.withheldKeys)
        }
        wanted.remove(key)
        arrivals += 1
    }

    /// Throws unless the device of Curve25519 key `curve25519` is one of ours that our
    /// cross-signing identity signed: the one the server publishes, signatures checked, and the
    /// one our recovery key opened (pinned): a server that published another for us is refused.
    private func checkOwnVerifiedDevice(curve25519: String) throws {
        let answer = try client.queryKeys(users: [device.userID])
        guard let identity = try CrossSigningIdentity.fromKeysQuery(answer, userID: device.userID) else {
            throw ForwardedKeyRefusal(reason: "our account has no cross-signing identity")
        }
        let trust = try device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust) ?? CrossSigningTrust()
        guard let pinned = trust.pinnedMasterKeys[device.userID],
              ConstantTime.equal(Array(pinned.utf8), Array(identity.master.publicKeyBase64.utf8)) else {
            throw ForwardedKeyRefusal(reason: "our identity on the server is not the one our recovery key opened")
        }
        let devices = answer["device_keys"]?[device.userID]?.object ?? [:]
        guard let forwarder = devices.values.first(where: { $0["keys"]?.object?.values.contains(.string(curve25519)) == true }) else {
            throw ForwardedKeyRefusal(reason: "the forwarding device is not one of ours")
        }
        guard identity.hasCrossSigned(deviceKeys: forwarder) else {
            throw ForwardedKeyRefusal(reason: "the forwarding device is not verified by our cross-signing identity")
        }
    }
}
