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

    /// Takes to-device verification events (`sender`, `type`, `content`), then checks the timeouts.
    func take(_ events: [JSONValue]) {
        for event in events {
            guard let sender = event["sender"]?.string, let type = event["type"]?.string, let content = event["content"] else { continue }
            take(type: type, content: content, sender: sender)
        }
        tick()
    }

    private func take(type: String, content: JSONValue, sender: String) {
        guard let flow = VerificationMessage.flowID(of: content), let keys else { return }
        let message: VerificationMessage
        do {
            message = try VerificationMessage(type: type, content: content)
        } catch {
            // A malformed message of a verification we run ends it; others are dropped.
            if lock.withLock({ entries[flow] != nil }) { act(flow) { $0.receive(.cancel(code: .invalidMessage, reason: "\(error)"), from: sender, nowMilliseconds: nowMilliseconds) } }
            return
        }
        if lock.withLock({ entries[flow] != nil }) {
            let now = nowMilliseconds
            let before = lock.withLock { entries[flow]?.machine.theirDeviceID }
            act(flow) { $0.receive(message, from: sender, nowMilliseconds: now) }
            cancelOtherRequestedDevices(flow, before: before)
            return
        }
        switch message {
        case .request, .start:
            offer(message, transport: .toDevice(transactionID: flow), sender: sender, keys: keys)
        case .cancel:
            break
        default:
            // An unknown transaction is said so (not for starts and cancels, as the spec says).
            guard let device = content["from_device"]?.string else { return }
            let code = VerificationCancelCode.unknownTransaction
            try? send([SasVerification.Outgoing(type: "m.key.verification.cancel",
                                                content: ["transaction_id": .string(flow), "code": .string(code.code), "reason": .string(code.words)])],
                      to: sender, devices: [device])
        }
    }

    /// A request (or start) from `sender`: a new verification waiting for our person.
    func offer(_ message: VerificationMessage, transport: SasVerification.Transport, sender: String, keys: MatrixRoomKeys) {
        guard let known = try? lookUp(sender, keys: keys) else { return }
        let now = nowMilliseconds
        let made: SasVerification?? = lock.withLock {
            try? SasVerification.answering(message, transport: transport, ourUserID: keys.device.userID,
                                           ourDeviceID: keys.device.deviceID, theirUserID: sender, ourKeys: known.ourKeys,
                                           theirDevices: known.devices.mapValues(\.ed25519),
                                           theirMasterKey: known.identity?.master.publicKeyBase64, nowMilliseconds: now, random: &random)
        }
        guard let machine = made ?? nil, let device = machine.theirDeviceID, known.devices[device] != nil else { return }
        let flow = transport.flowID
        lock.withLock {
            entries[flow] = Entry(machine: machine, theirDevices: known.devices, theirIdentity: known.identity, requestedDevices: [device])
            order.append(flow)
        }
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
                                            content: ["transaction_id": .string(flow), "code": .string(code.code), "reason": .string(code.words)])],
                  to: entry.machine.theirUserID, devices: others)
    }

    /// `user`'s devices and identity from a fresh `/keys/query` (with ours), and the keys we MAC
    /// to them: our device's Ed25519 key, and our master key when this device trusts it (it holds
    /// our cross-signing keys, or our identity signed it).
    func lookUp(_ user: String, keys: MatrixRoomKeys) throws -> Known {
        let me = keys.device.userID, myDevice = keys.device.deviceID
        let answer = try keys.client.queryKeys(users: Array(Set([user, me])))
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
