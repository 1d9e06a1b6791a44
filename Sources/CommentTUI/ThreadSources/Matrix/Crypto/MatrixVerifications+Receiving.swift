import Foundation
import MatrixCrypto
import ThreadModel

/// The verification messages a sync brings: each to the verification it belongs to, or, for a
/// request (or a start without one), a new verification offered to our person.
extension MatrixVerifications {
    /// What we know of a user when a verification begins: their devices and identity, and the
    /// keys we ask them to trust.
    struct Known {
        var devices: [String: DeviceKeys]
        var identity: CrossSigningIdentity?
        var ourKeys: [String: String]
    }

    /// The `/keys/query` answers of one batch of events, by user: each user is asked about at
    /// most once a batch, however many requests they sent in it.
    struct Lookups {
        private var answers: [String: Result<Known, Error>] = [:]
        /// The users already refused in this batch for asking too often (told once).
        var refused: Set<String> = []

        /// `user`'s answer in this batch, else the one `query` gives (kept, failed or not).
        mutating func known(_ user: String, query: () throws -> Known) throws -> Known {
            if let answer = answers[user] { return try answer.get() }
            let answer = Result { try query() }
            answers[user] = answer
            return try answer.get()
        }
    }

    /// Takes to-device verification events (`sender`, `type`, `content`, and `sender_device`
    /// when the Olm message they came in named it), then checks the timeouts.
    func take(_ events: [JSONValue]) {
        var lookups = Lookups()
        for event in events {
            guard let sender = event["sender"]?.string, let type = event["type"]?.string, let content = event["content"] else { continue }
            take(type: type, content: content, sender: sender, senderDevice: event["sender_device"]?.string, lookups: &lookups)
        }
        tick()
    }

    private func take(type: String, content: JSONValue, sender: String, senderDevice: String?, lookups: inout Lookups) {
        guard let flow = VerificationMessage.flowID(of: content), let keys else { return }
        let device = senderDevice ?? content["from_device"]?.string
        // nil: no verification of ours; false: ours is with someone else, whom this sender cannot address.
        let theirs = lock.withLock { entries[flow].map { $0.machine.theirUserID == sender } }
        if theirs == false { return }
        let message: VerificationMessage
        do {
            message = try VerificationMessage(type: type, content: content)
        } catch {
            // A malformed message of a verification we run ends it; others are dropped.
            if theirs == true {
                let now = nowMilliseconds
                act(flow) { $0.receive(.cancel(code: .invalidMessage, reason: "\(error)"), from: sender, device: device, nowMilliseconds: now) }
            }
            return
        }
        if theirs == true {
            feed(flow, message, sender: sender, device: device, lookups: &lookups)
            return
        }
        switch message {
        case .request, .start:
            offer(message, transport: .toDevice(transactionID: flow), sender: sender, keys: keys, lookups: &lookups)
        case .cancel:
            break
        default:
            // An unknown transaction is said so, as the spec asks (not for starts and cancels): to
            // the device that sent it, or all of the sender's when it did not say; once a flow.
            let first = lock.withLock {
                if answeredUnknown.count >= 1024 { answeredUnknown.removeAll() }
                return answeredUnknown.insert("\(sender) \(flow)").inserted
            }
            guard first else { return }
            let code = VerificationCancelCode.unknownTransaction
            try? send([SasVerification.Outgoing(type: "m.key.verification.cancel",
                                                content: ["transaction_id": .string(flow), "code": .string(code.code), "reason": .string(code.words),
                                                          "from_device": .string(keys.device.deviceID)])],
                      to: sender, devices: [device ?? "*"])
        }
    }

    /// Feeds `message` from `sender` to verification `flow` (theirs). To-device, only the devices
    /// asked may answer; a device newer than the request (in a room all of theirs see it) has
    /// its keys read first, so its MAC can be checked.
    func feed(_ flow: String, _ message: VerificationMessage, sender: String, device: String?, lookups: inout Lookups) {
        guard let entry = lock.withLock({ entries[flow] }) else { return }
        let before = entry.machine.theirDeviceID
        if before == nil, case .ready(let answering, _) = message {
            if case .toDevice = entry.machine.transport, !entry.requestedDevices.contains(answering) { return }
            if !entry.machine.knowsDevice(answering) { learn(answering, of: sender, flow: flow, lookups: &lookups) }
        }
        let now = nowMilliseconds
        act(flow) { $0.receive(message, from: sender, device: device, nowMilliseconds: now) }
        cancelOtherRequestedDevices(flow, before: before)
    }

    /// Reads the keys of `device` of `user`, which answered `flow` though it was not known when
    /// the request went, and gives them to the verification.
    private func learn(_ device: String, of user: String, flow: String, lookups: inout Lookups) {
        guard let keys, let known = try? lookups.known(user, query: { try lookUp(user, keys: keys) }),
              let found = known.devices[device] else { return }
        lock.withLock {
            guard entries[flow]?.machine.theirDeviceID == nil else { return }
            entries[flow]?.theirDevices[device] = found
            entries[flow]?.machine.learnDevices([device: found.ed25519])
        }
    }

    /// A request (or start) from `sender`: a new verification waiting for our person. One per
    /// device of theirs: one that asks again ends its earlier attempts (as the spec says), and
    /// at most `pendingIncomingLimit` wait at once (more are refused unseen). When their keys
    /// cannot be read, or the asking device has none, it is refused with a reason, and shown so.
    func offer(_ message: VerificationMessage, transport: SasVerification.Transport, sender: String, keys: MatrixRoomKeys,
               lookups: inout Lookups) {
        guard let device = message.fromDevice else { return }
        let flow = transport.flowID
        let waiting = lock.withLock {
            entries.values.filter { entry in
                let machine = entry.machine
                return [.incomingRequest, .incomingStart].contains(machine.phase) && !(machine.theirUserID == sender && machine.theirDeviceID == device)
            }.count
        }
        guard waiting < pendingIncomingLimit else {
            if case .toDevice = transport, lookups.refused.insert(sender).inserted {
                let code = VerificationCancelCode.user
                try? send([SasVerification.Outgoing(type: "m.key.verification.cancel", content: [
                    "transaction_id": .string(flow), "code": .string(code.code), "from_device": .string(keys.device.deviceID),
                    "reason": "too many verification requests are waiting here",
                ])], to: sender, devices: [device])
            }
            return
        }
        let known: Known?
        do {
            known = try lookups.known(sender) { try lookUp(sender, keys: keys) }
        } catch {
            known = nil
        }
        let now = nowMilliseconds
        let used = known ?? Known(devices: [:], identity: nil, ourKeys: [:])
        let made: SasVerification?? = lock.withLock {
            try? SasVerification.answering(message, transport: transport, ourUserID: keys.device.userID,
                                           ourDeviceID: keys.device.deviceID, theirUserID: sender, ourKeys: used.ourKeys,
                                           theirDevices: used.devices.mapValues(\.ed25519),
                                           theirMasterKey: used.identity?.master.publicKeyBase64, nowMilliseconds: now, random: &random)
        }
        guard var machine = made ?? nil else { return }
        let earlier = lock.withLock {
            order.filter { id in
                entries[id].map { !$0.machine.weRequested && !$0.machine.isFinished && $0.machine.theirUserID == sender
                    && $0.machine.theirDeviceID == device } ?? false
            }
        }
        for id in earlier { act(id) { $0.refuse(.user, reason: "the device asked again") } }
        var refusal: [SasVerification.Outgoing] = []
        if known == nil {
            refusal = machine.refuse(.user, reason: "the asking device's keys could not be read")
        } else if used.devices[device] == nil {
            refusal = machine.refuse(.user, reason: "the asking device has no keys known to its server")
        }
        let entry = Entry(machine: machine, theirDevices: used.devices, theirIdentity: used.identity, requestedDevices: [device])
        let kept = lock.withLock {
            guard entries[flow] == nil else { return false }
            entries[flow] = entry
            order.append(flow)
            return true
        }
        guard kept else { return }
        deliver(refusal, for: entry)
        onChange?()
    }

    /// When one of several asked devices answered, the others are told another one did
    /// (`m.accepted`); when one declined before any answered, all are told (`m.user`), as the spec asks.
    private func cancelOtherRequestedDevices(_ flow: String, before: String?) {
        guard before == nil, let entry = lock.withLock({ entries[flow] }), entry.machine.weRequested else { return }
        let declined: Bool
        if case .cancelled(let cancellation) = entry.machine.phase, !cancellation.byUs { declined = true } else { declined = false }
        guard declined || entry.machine.theirDeviceID != nil else { return }
        let others = entry.requestedDevices.filter { $0 != entry.machine.theirDeviceID }
        guard !others.isEmpty else { return }
        let code = declined ? VerificationCancelCode.user : .accepted
        try? send([SasVerification.Outgoing(type: "m.key.verification.cancel",
                                            content: ["transaction_id": .string(flow), "code": .string(code.code), "reason": .string(code.words),
                                                      "from_device": .string(entry.machine.ourDeviceID)])],
                  to: entry.machine.theirUserID, devices: others)
    }

    /// `user`'s devices and identity from a fresh `/keys/query` (with ours), and the keys we MAC
    /// to them: our device's Ed25519 key, and our master key when this device trusts it (it holds
    /// our cross-signing keys, or our identity signed it).
    func lookUp(_ user: String, keys: MatrixRoomKeys) throws -> Known {
        let me = keys.device.userID, myDevice = keys.device.deviceID
        let answer = try queryKeys(keys.client, Array(Set([user, me])))
        var devices: [String: DeviceKeys] = [:]
        for (id, object) in answer["device_keys"]?[user]?.object ?? [:] {
            if let checked = try? DeviceKeys(object, userID: user, deviceID: id) { devices[id] = checked }
        }
        let identity = try? CrossSigningIdentity.fromKeysQuery(answer, userID: user)
        let ours = try? CrossSigningIdentity.fromKeysQuery(answer, userID: me)
        var ourKeys = ["ed25519:\(myDevice)": keys.device.fingerprint]
        if let ours {
            let held = keys.lock.withLock { try? keys.device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys) }
            let ourDevice = answer["device_keys"]?[me]?[myDevice]
            if held.map({ ConstantTime.equal($0.master.publicKey, ours.master.publicKey) }) == true
                || ourDevice.map(ours.hasCrossSigned(deviceKeys:)) == true {
                ourKeys["ed25519:\(ours.master.publicKeyBase64)"] = ours.master.publicKeyBase64
            }
        }
        return Known(devices: devices, identity: identity, ourKeys: ourKeys)
    }
}
