import Foundation
import MatrixCrypto
import ThreadModel

/// Verifications of other users in a room, as the spec has them: the request is an
/// `m.room.message` (msgtype `m.key.verification.request`, `to` them), the other messages relate
/// to it with `m.reference`. In an encrypted room each goes out encrypted through the room-key
/// send path (`MatrixRoomKeys.encrypt`), never in the clear; the room's state is read before each
/// send, as for comments. Incoming ones come from the room's decryption (`MatrixRoomDecryption`),
/// taken on a queue of their own so a room's reading never waits on a verification's requests.
extension MatrixVerifications {
    /// Asks `userID` to verify in `roomID`; returns the verification's id (the request's event id).
    @discardableResult
    func request(userID: String, inRoom roomID: String) throws -> String {
        guard let keys else { throw MatrixVerificationRefusal("this device's keys are closed") }
        guard userID != keys.device.userID else { throw MatrixVerificationRefusal("verify your own devices to-device, not in a room") }
        let known = try lookUp(userID, keys: keys)
        guard !known.devices.isEmpty else { throw MatrixVerificationRefusal("\(userID) has no device with encryption keys") }
        let me = keys.device.userID, myDevice = keys.device.deviceID
        let request = SasVerification.roomRequest(ourUserID: me, ourDeviceID: myDevice, theirUserID: userID)
        // On the room events' queue: an answer read before the send returned waits for the entry.
        return try roomQueue.sync { try begin(request, userID: userID, roomID: roomID, known: known, keys: keys) }
    }

    /// Sends the request and keeps its verification under the request's event id.
    private func begin(_ request: SasVerification.Outgoing, userID: String, roomID: String, known: Known,
                       keys: MatrixRoomKeys) throws -> String {
        let me = keys.device.userID, myDevice = keys.device.deviceID
        let eventID = try sendInRoom(roomID, request, keys: keys)
        let machine = try lock.withLock {
            try SasVerification.requesting(transport: .room(roomID: roomID, requestEventID: eventID), ourUserID: me, ourDeviceID: myDevice,
                                           theirUserID: userID, theirDeviceID: nil, ourKeys: known.ourKeys,
                                           theirDevices: known.devices.mapValues(\.ed25519),
                                           theirMasterKey: known.identity?.master.publicKeyBase64, nowMilliseconds: nowMilliseconds,
                                           random: &random).0
        }
        lock.withLock {
            handledRoomEvents.insert(eventID)
            entries[eventID] = Entry(machine: machine, theirDevices: known.devices, theirIdentity: known.identity, requestedDevices: [])
            order.append(eventID)
        }
        onChange?()
        return eventID
    }

    /// A room event (decrypted when it was encrypted) that may be a verification message: taken
    /// later on the verifications' own queue. Each event once, however often its room reads it.
    func noteRoomEvent(_ event: JSONValue, roomID: String) {
        guard let type = event["type"]?.string, let id = event["event_id"]?.string, let sender = event["sender"]?.string,
              VerificationMessage.isVerificationType(type)
                || (type == "m.room.message" && event["content"]?["msgtype"]?.string == "m.key.verification.request"),
              let first = lock.withLock({ () -> Bool? in
                  guard handledRoomEvents.insert(id).inserted else { return nil }
                  roomEventsWaiting.append((event, roomID, sender))
                  return roomEventsWaiting.count == 1 && !holdingRoomEvents
              }) else { return }
        if first { roomQueue.async { [self] in takeWaitingRoomEvents() } }
    }

    /// Notes the room events `body` notes as one batch (a sync's rooms): taken once it returns.
    func noteRoomEventsTogether(_ body: () -> Void) {
        lock.withLock { holdingRoomEvents = true }
        body()
        let waiting = lock.withLock {
            holdingRoomEvents = false
            return !roomEventsWaiting.isEmpty
        }
        if waiting { roomQueue.async { [self] in takeWaitingRoomEvents() } }
    }

    /// Takes the room events noted so far, as one batch: each user's keys read once in it.
    private func takeWaitingRoomEvents() {
        let waiting = lock.withLock { defer { roomEventsWaiting = [] }; return roomEventsWaiting }
        var lookups = Lookups()
        for noted in waiting { takeRoomEvent(noted.event, roomID: noted.roomID, sender: noted.sender, lookups: &lookups) }
    }

    /// Waits until the room events noted so far were taken (tests).
    func waitForRoomEvents() { roomQueue.sync {} }

    private func takeRoomEvent(_ event: JSONValue, roomID: String, sender: String, lookups: inout Lookups) {
        guard let keys, let type = event["type"]?.string, let content = event["content"], let id = event["event_id"]?.string,
              var message = try? VerificationMessage(type: type, content: content) else { return }
        if sender == keys.device.userID {
            // Our own message: another device of ours answering a request this one was offered ends it here.
            guard content["from_device"]?.string != keys.device.deviceID, let flow = VerificationMessage.flowID(of: content),
                  lock.withLock({ entries[flow].map { !$0.machine.weRequested && $0.machine.transport == .room(roomID: roomID, requestEventID: flow) } ?? false })
            else { return }
            act(flow) { $0.answeredElsewhere(); return [] }
            return
        }
        if case .request(let device, let methods, _) = message {
            // For us only when addressed to us; it lapses by the server's time of it.
            guard content["to"]?.string == keys.device.userID else { return }
            message = .request(fromDevice: device, methods: methods, timestamp: event["origin_server_ts"]?.int.map(Int64.init))
            offer(message, transport: .room(roomID: roomID, requestEventID: id), sender: sender, keys: keys, lookups: &lookups)
            return
        }
        // Any member can relate an event to the request: only the other party's count, in the
        // room the verification is in; the rest is dropped, never answered with a cancel.
        guard let flow = VerificationMessage.flowID(of: content),
              lock.withLock({ entries[flow].map { $0.machine.theirUserID == sender && $0.machine.transport == .room(roomID: roomID, requestEventID: flow) } ?? false })
        else { return }
        feed(flow, message, sender: sender, device: content["from_device"]?.string, lookups: &lookups)
    }

    /// Sends `message` into `roomID`: encrypted when the room is, never in the clear then; its event id.
    func sendInRoom(_ roomID: String, _ message: SasVerification.Outgoing, keys: MatrixRoomKeys) throws -> String {
        var type = message.type, content = message.content
        if let settings = try keys.client.stateContent(room: roomID, type: "m.room.encryption") {
            let members = Set(try keys.client.joinedMembers(room: roomID).keys)
            content = try keys.encrypt(type: type, content: content, roomID: roomID, members: members, settings: settings, now: clock())
            type = "m.room.encrypted"
        }
        return try keys.client.send(room: roomID, type: type, transactionID: "ct-verify-" + UUID().uuidString, content: content)
    }
}
