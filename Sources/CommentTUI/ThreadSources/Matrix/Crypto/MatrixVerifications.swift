import Foundation
import MatrixCrypto
import ThreadModel

/// The interactive SAS verifications of one account's device (`SasVerification`, carried
/// to-device, or in a room for other users: `+Room`): those the sync brings (requests offered through `all` and `onChange`) and those
/// we start, our person's answers (`accept`, `confirm`, `mismatch`, `cancel`), the timeouts, and
/// on success the trust (`+Trust`): our other device signed with our self-signing key, another
/// user's master key with our user-signing key, when we hold them; marked verified here either way.
///
/// Thread-safe: the sync's thread feeds it (`MatrixRoomKeys.take`), the UI acts on it; one lock
/// around the verifications, requests made outside it.
final class MatrixVerifications: @unchecked Sendable {
    /// The keys it belongs to (they own it).
    weak var keys: MatrixRoomKeys?
    /// The time now (tests inject it, to reach a timeout without waiting).
    var clock: @Sendable () -> Date = { Date() }
    /// Called after any change, on the thread that made it (the screen redraws).
    var onChange: (@Sendable () -> Void)?
    let lock = NSLock()
    var entries: [String: Entry] = [:]
    var order: [String] = []
    var random = AnyRandomSource(SystemRandom())
    /// The room events taken (by id), and the queue room events are taken on (`+Room`), in
    /// batches: those noted while the queue was busy are taken together.
    var handledRoomEvents: Set<String> = []
    let roomQueue = DispatchQueue(label: "comment-tui.verifications.room")
    var roomEventsWaiting: [(event: JSONValue, roomID: String, sender: String)] = []
    var holdingRoomEvents = false
    /// How many incoming verifications may wait for our person at once; more are refused
    /// unseen (a flood of requests must not bury the screen or the sync). Tests lower it.
    var pendingIncomingLimit = 5
    /// The unknown transactions already answered (`m.unknown_transaction`), `<user> <flow>`:
    /// each once, so stray messages cost at most one answer each.
    var answeredUnknown: Set<String> = []
    /// `/keys/query` as the verifications make it; tests wrap it to count or fail the lookups.
    var queryKeys: (@Sendable (MatrixClient, [String]) throws -> JSONValue) = { client, users in try client.queryKeys(users: users) }

    /// One verification and what it needs around it.
    struct Entry {
        var machine: SasVerification
        /// Their devices (checked keys) and identity, as `/keys/query` gave them when it began.
        var theirDevices: [String: DeviceKeys]
        var theirIdentity: CrossSigningIdentity?
        /// The devices a request went to (all of them when the device was not named).
        var requestedDevices: [String]
        var trustNote: String?
    }

    /// Every verification of this run, oldest first.
    var all: [MatrixVerification] { lock.withLock { order.compactMap { entries[$0].map(summary) } } }

    /// The verification `id`.
    func verification(_ id: String) -> MatrixVerification? { lock.withLock { entries[id].map(summary) } }

    var nowMilliseconds: Int64 { Int64((clock().timeIntervalSince1970 * 1000).rounded()) }

    /// Starts verifying `deviceID` of `userID` (nil: any of their devices answers; for our own
    /// user, all our other devices are asked); returns its id. Throws when the request did not go.
    @discardableResult
    func request(userID: String, deviceID: String?) throws -> String {
        guard let keys else { throw MatrixVerificationRefusal("this device's keys are closed") }
        let known = try lookUp(userID, keys: keys)
        let me = keys.device.userID, myDevice = keys.device.deviceID
        var targets = deviceID.map { [$0] } ?? Array(known.devices.keys).sorted()
        if userID == me { targets.removeAll { $0 == myDevice } }
        guard !targets.isEmpty, targets.allSatisfy({ known.devices[$0] != nil }) else {
            throw MatrixVerificationRefusal(deviceID == nil ? "\(userID) has no other device with encryption keys"
                                                            : "device \(deviceID ?? "") of \(userID) is not known")
        }
        let id = "ct-verify-" + UUID().uuidString
        let (machine, request) = try lock.withLock {
            try SasVerification.requesting(transport: .toDevice(transactionID: id), ourUserID: me, ourDeviceID: myDevice,
                                           theirUserID: userID, theirDeviceID: deviceID, ourKeys: known.ourKeys,
                                           theirDevices: known.devices.mapValues(\.ed25519), theirMasterKey: known.identity?.master.publicKeyBase64,
                                           nowMilliseconds: nowMilliseconds, random: &random)
        }
        // Kept before it goes: the answer may come on the sync's thread before the send returns.
        lock.withLock {
            entries[id] = Entry(machine: machine, theirDevices: known.devices, theirIdentity: known.identity, requestedDevices: targets)
            order.append(id)
        }
        do {
            try send([request], to: userID, devices: targets)
        } catch {
            lock.withLock {
                entries[id] = nil
                order.removeAll { $0 == id }
            }
            throw error
        }
        onChange?()
        return id
    }

    /// Our person accepts an incoming request (or start).
    func accept(_ id: String) { act(id) { $0.accept() } }
    /// Our person starts the emoji comparison of a request they accepted (the requester's
    /// device starts by itself; Element waits for one side's person to).
    func start(_ id: String) { act(id) { $0.start() } }
    /// Our person says the emoji (or numbers) match.
    func confirm(_ id: String) { act(id) { $0.confirm() } }
    /// Our person says they differ: cancelled with `m.mismatched_sas`.
    func mismatch(_ id: String) { act(id) { $0.mismatch() } }
    /// Our person cancels or declines: `m.user`.
    func cancel(_ id: String) { act(id) { $0.cancel() } }

    /// Cancels what timed out (`m.timeout`); the sync calls it each time, the screen may too.
    func tick() {
        let now = nowMilliseconds
        let ids = lock.withLock { order.filter { entries[$0]?.machine.isFinished == false } }
        for id in ids { act(id) { $0.tick(nowMilliseconds: now) } }
    }

    /// Runs `step` on verification `id`, sends what it returns and, when it ended verified, applies the trust.
    func act(_ id: String, _ step: (inout SasVerification) -> [SasVerification.Outgoing]) {
        let result: ([SasVerification.Outgoing], Entry)? = lock.withLock {
            guard var entry = entries[id] else { return nil }
            let outgoing = step(&entry.machine)
            entries[id] = entry
            return (outgoing, entry)
        }
        guard let (outgoing, entry) = result else { return }
        deliver(outgoing, for: entry)
        finish(id, entry)
    }

    /// Sends `outgoing` of `entry` to their device (or every requested one while none answered).
    func deliver(_ outgoing: [SasVerification.Outgoing], for entry: Entry) {
        guard !outgoing.isEmpty else { return }
        if case .room(let roomID, _) = entry.machine.transport, let keys {
            for message in outgoing { _ = try? sendInRoom(roomID, message, keys: keys) }
            return
        }
        let devices = entry.machine.theirDeviceID.map { [$0] } ?? entry.requestedDevices
        try? send(outgoing, to: entry.machine.theirUserID, devices: devices)
    }

    /// Applies the trust once a verification is done, and tells the screen.
    func finish(_ id: String, _ entry: Entry) {
        // Claimed under the lock, so two threads finishing at once apply it once.
        let claimed = lock.withLock {
            guard entry.machine.phase == .done, entries[id]?.trustNote == nil else { return false }
            entries[id]?.trustNote = ""
            return true
        }
        if claimed, let keys {
            let note = applyTrust(entry, keys: keys)
            lock.withLock { entries[id]?.trustNote = note }
        }
        onChange?()
    }

    /// Sends each message to-device to `devices` of `user`.
    func send(_ messages: [SasVerification.Outgoing], to user: String, devices: [String]) throws {
        guard let keys else { return }
        for message in messages {
            let content = Dictionary(devices.map { ($0, message.content) }, uniquingKeysWith: { first, _ in first })
            try keys.client.sendToDevice(type: message.type, transactionID: "ct-verify-msg-" + UUID().uuidString, messages: [user: content])
        }
    }
}

/// Why a verification could not begin, in words.
struct MatrixVerificationRefusal: Error, Equatable, CustomStringConvertible {
    let reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}
