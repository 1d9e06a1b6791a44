import Foundation
import MatrixCrypto
import ThreadModel

/// Recovering a broken Olm session, as the spec's "recovering from undecryptable messages" and
/// matrix-rust-sdk do, from both sides:
/// - a normal message from a device that none of our sessions decrypts means the device's
///   session with us is one we lost (or never had): we start a new one from a claimed key and
///   send an `m.dummy` over it, so the device has a working session to us; at most once an hour
///   per device (`OlmSessionRecovery`, kept in the store so a restart does not reset it);
/// - a new session started by a device we had sent room keys to may mean it lost the old one,
///   and with it keys we sent: the device is taken out of our outbound sessions' `sharedWith`,
///   so the next message sends it the current key again, over the new (newest) session.
extension MatrixRoomKeys {
    /// When new sessions were last started with broken devices (id `recovery`).
    static let sessionRecoveries = CryptoStoreCollection<OlmSessionRecovery>("olm-recovery")

    /// Starts a new Olm session with the device of `senderKey` of `sender` and sends it an
    /// `m.dummy` over it, unless one was started within the hour. Returns whether it did.
    /// Throws when the device is not known, has no key to claim, or a request fails (the attempt
    /// still counts: the next is in an hour). Call locked.
    @discardableResult
    func recoverSession(with sender: String, senderKey: String) throws -> Bool {
        guard let target = knownDevice(of: sender, curve25519: senderKey) else {
            throw OlmRefusal(reason: "the sending device is not in its owner's device list")
        }
        var recovery = try device.store.value("recovery", in: Self.sessionRecoveries) ?? OlmSessionRecovery()
        let now = Int64((clock().timeIntervalSince1970 * 1000).rounded())
        guard recovery.startsNewSession(with: senderKey, nowMilliseconds: now) else { return false }
        // Recorded before the claim, so failures too wait an hour rather than claim on every message.
        try device.store.put(recovery, id: "recovery", in: Self.sessionRecoveries)
        guard var session = try claimSessions(for: [target])[senderKey] else {
            throw OlmRefusal(reason: "no one-time key could be claimed for the sending device")
        }
        let plaintext = try OlmPayload.plaintext(type: "m.dummy", content: [:], sender: device.userID, senderDevice: device.deviceID,
                                                 senderEd25519: device.fingerprint, recipient: target.userID,
                                                 recipientEd25519: target.ed25519)
        let message = try session.encrypt(plaintext, random: &device.random)
        // The new session, newest first, is on disk before its first message leaves.
        var sessions = try device.store.value(senderKey, in: Self.olmSessions) ?? []
        sessions.insert(session, at: 0)
        try device.store.put(sessions, id: senderKey, in: Self.olmSessions)
        try client.sendToDevice(type: "m.room.encrypted", transactionID: Self.transactionID(),
                                messages: [target.userID: [target.deviceID: olmContent(message, to: target)]])
        return true
    }

    /// Our outbound Megolm sessions that went to the device of `senderKey` of `sender` (or told it
    /// `m.no_olm`), by room, without it: to be stored with the new session that device started,
    /// so the next message in each room shares the key with it again. Call locked.
    func outboundSessionsForgetting(sender: String, senderKey: String) throws -> [String: OutboundRoomSession] {
        let deviceIDs = Set((tracker.devices[sender] ?? [:]).values.filter { $0.curve25519 == senderKey }.map(\.deviceID))
        var changed: [String: OutboundRoomSession] = [:]
        for (room, kept) in try device.store.values(in: Self.outboundSessions) {
            var outbound = kept
            let shared = outbound.sharedWith[sender]?.filter { $0.value == senderKey }.map(\.key) ?? []
            for id in shared { outbound.sharedWith[sender]?[id] = nil }
            if outbound.sharedWith[sender]?.isEmpty == true { outbound.sharedWith[sender] = nil }
            let withheld = outbound.withheldFrom[sender]?.intersection(deviceIDs) ?? []
            outbound.withheldFrom[sender]?.subtract(withheld)
            if outbound.withheldFrom[sender]?.isEmpty == true { outbound.withheldFrom[sender] = nil }
            if !shared.isEmpty || !withheld.isEmpty { changed[room] = outbound }
        }
        return changed
    }
}
