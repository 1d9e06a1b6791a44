import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Recovering broken Olm sessions against Synapse with matrix-nio (vodozemac): nio loses its
/// sessions with Ann and both go on reading each other (nio's `m.dummy`, our key shared again
/// over the new session); Ann loses hers and starts a new one with an `m.dummy` of her own, at
/// most once an hour per device (time injected); our keys go over the newest session with a
/// device, not the one it used last.
final class MatrixOlmRecoveryTests: SharedSynapseTestCase {
    /// A time the tests set, for `MatrixRoomKeys.clock`.
    private final class TestClock: @unchecked Sendable {
        private let lock = NSLock()
        private var time = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { time } }
        func advance(minutes: Double) { lock.withLock { time += minutes * 60 } }
    }

    /// Sends `bodies` as Ann, one after another, each confirmed by the server.
    private func annSends(_ bodies: [String], through source: MatrixThreadSource, as room: EncryptedRoom) throws {
        for body in bodies {
            let sent = comment(by: room.ann, body)
            XCTAssertEqual(source.send(sent), .pending)
            try collectUpdates(from: source, timeout: 30) { updates in
                updates.contains { if case .sendConfirmed(sent.id) = $0 { true } else { false } }
            }
        }
    }

    /// The bodies of the messages nio decrypts, and how many of the room's it could not open;
    /// then nio does `then` in the same run.
    private func nioReads(_ room: EncryptedRoom, then: [MatrixNioPeer.Step] = []) throws -> (bodies: [String], undecrypted: Int) {
        let results = try room.nio.run([.messages(room: room.room, limit: 30)] + then)
        XCTAssertTrue(results.dropFirst().allSatisfy { $0["error"] == nil }, "\(results)")
        let result = try XCTUnwrap(results.first)
        let messages = try XCTUnwrap(result["messages"] as? [[String: Any]], "\(result)")
        let bodies = messages.compactMap { $0["decrypted"] as? Bool == true ? $0["body"] as? String : nil }
        return (bodies, try XCTUnwrap(result["undecrypted"] as? Int))
    }

    /// Nio's device's Curve25519 key as Ann's device list has it.
    private func nioCurve(_ keys: MatrixRoomKeys, _ room: EncryptedRoom) throws -> String {
        try XCTUnwrap(keys.lock.withLock { keys.trackedDevices(of: room.bo.account.userID).first?.curve25519 })
    }

    /// How many Olm sessions Ann keeps with the device of `curve`.
    private func sessionCount(_ keys: MatrixRoomKeys, with curve: String) -> Int {
        keys.lock.withLock { (try? keys.device.store.value(curve, in: MatrixRoomKeys.olmSessions))?.count ?? 0 }
    }

    /// Waits (bounded) until `condition` holds.
    private func waitUntil(_ what: String, timeout: TimeInterval = 20, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { return XCTFail("waited \(Int(timeout)) s for \(what)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Waits until the source shows a comment with `body`.
    private func waitForComment(_ body: String, in source: MatrixThreadSource) throws {
        try collectUpdates(from: source, timeout: 30) { updates in
            updates.contains { update in
                switch update {
                case .commentsAppended(let list): list.contains { $0.body == body }
                case .commentEdited(let edited): edited.body == body
                default: false
                }
            }
        }
    }

    func testNioWipesItsSessionsWithUsAndBothRecover() throws {
        // Two messages per session, so Ann's first message after the wipe shares a new key.
        let room = try encryptedRoom(rotationMessages: 2)
        let keys = try keys(of: room)
        try nioSends(["before the wipe"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        XCTAssertEqual(opened(source).map(\.body), ["before the wipe"])
        try annSends(["ann 1", "ann 2"], through: source, as: room)
        let curve = try nioCurve(keys, room)
        XCTAssertEqual(sessionCount(keys, with: curve), 1)
        // Nio reads them, then loses its session with Ann.
        XCTAssertEqual(try nioReads(room, then: [.forgetOlmSessions(user: room.ann.account.userID)]).bodies, ["before the wipe", "ann 1", "ann 2"])
        // Its key goes over the session nio lost: nio cannot open it, and starts a new session
        // with an m.dummy (as its sync loop does).
        try annSends(["ann 3, key lost"], through: source, as: room)
        _ = try room.nio.run([.sync])
        try waitUntil("nio's new session") { sessionCount(keys, with: curve) == 2 }
        // The new session took nio's device out of those the key went to: it is sent again.
        try annSends(["ann 4"], through: source, as: room)
        let read = try nioReads(room)
        XCTAssertEqual(read.bodies, ["before the wipe", "ann 1", "ann 2", "ann 4"], "nio reads what we send after its new session")

        // And nio's next key comes to us over its new session.
        try nioSends(["after the wipe"], in: room)
        try waitForComment("after the wipe", in: source)
    }

    func testWeLoseOurSessionWithNioAndRecoverWithAnMDummy() throws {
        let room = try encryptedRoom()
        let clock = TestClock()
        let keys = try keys(of: room)
        keys.clock = { clock.now }
        try nioSends(["first"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        XCTAssertEqual(opened(source).map(\.body), ["first"])
        // A reply over the session, so nio's next messages on it are normal (not pre-key) ones.
        try annSends(["ann 1"], through: source, as: room)
        XCTAssertEqual(try nioReads(room).bodies, ["first", "ann 1"])

        let curve = try nioCurve(keys, room)
        try keys.lock.withLock { try keys.device.store.put([], id: curve, in: MatrixRoomKeys.olmSessions) }
        try nioSends(["lost"], in: room)
        try waitUntil("our new session with nio") { sessionCount(keys, with: curve) == 1 }
        // Nio takes our m.dummy's session and sends its next key over it.
        try nioSends(["found"], in: room)
        try waitForComment("found", in: source)
    }

    func testANewSessionWithABrokenDeviceIsStartedAtMostOnceAnHour() throws {
        let room = try encryptedRoom()
        _ = try room.nio.run([.sync])
        let clock = TestClock()
        let keys = try keys(of: room)
        keys.clock = { clock.now }
        let curve = try nioCurve(keys, room)
        // A normal Olm message from nio's device that no session of ours opens.
        let broken: JSONValue = [
            "type": "m.room.encrypted", "sender": .string(room.bo.account.userID),
            "content": ["algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(curve),
                        "ciphertext": .object([keys.device.identityKey: ["type": 1, "body": "AwoguOWW6h0E5ZRLBr1T2Vj6vYhTZ2Mu"]])],
        ]
        let answer: JSONValue = ["to_device": ["events": [broken]]]

        XCTAssertEqual(keys.take(answer).count, 1, "the message is not opened")
        XCTAssertEqual(sessionCount(keys, with: curve), 1, "a new session, from a claimed key")
        clock.advance(minutes: 30)
        keys.take(answer)
        clock.advance(minutes: 29)
        keys.take(answer)
        XCTAssertEqual(sessionCount(keys, with: curve), 1, "none within the hour")
        clock.advance(minutes: 2)
        XCTAssertTrue(keys.take(answer).first?.contains("a new session was started") == true)
        XCTAssertEqual(sessionCount(keys, with: curve), 2, "another after the hour")
    }

    func testOurKeysGoOverTheNewestSessionWithADeviceNotTheLastUsed() throws {
        let room = try encryptedRoom()
        let bo = room.bo.account.userID
        // Bo's second device is driven here, with our own Olm code, its keys on Synapse.
        var random = SystemRandom()
        var peer = try OlmAccount(random: &random)
        try peer.generateOneTimeKeys(2, random: &random)
        let upload = try peer.keysUploadBody(userID: bo, deviceID: room.bo.account.deviceID, includingDeviceKeys: true)
        try room.bo.other.call("POST", "/_matrix/client/v3/keys/upload",
                               body: XCTUnwrap(JSONSerialization.jsonObject(with: Data(CanonicalJSON.encode(upload))) as? [String: Any]))
        let keys = try keys(of: room)
        let annCurve = try XCTUnwrap(UnpaddedBase64.decode(keys.device.identityKey))
        let peerCurve = UnpaddedBase64.encode(peer.curve25519Key)

        /// A new session from the peer to Ann, on a one-time key claimed as Bo.
        func newSession() throws -> OlmSession {
            let answer = try room.bo.other.call("POST", "/_matrix/client/v3/keys/claim", body: [
                "one_time_keys": [room.ann.account.userID: [room.ann.account.deviceID: "signed_curve25519"]],
            ])
            let claimed = ((answer["one_time_keys"] as? [String: Any])?[room.ann.account.userID] as? [String: Any])?[room.ann.account.deviceID]
            let key = try XCTUnwrap(((claimed as? [String: Any])?.first?.value as? [String: Any])?["key"] as? String)
            return try OlmSession.outbound(account: peer, theirIdentityKey: annCurve, theirOneTimeKey: XCTUnwrap(UnpaddedBase64.decode(key)),
                                           random: &random)
        }
        /// The peer sends Ann an m.dummy over `session`.
        func send(over session: inout OlmSession) throws {
            let plaintext = try OlmPayload.plaintext(type: "m.dummy", content: [:], sender: bo, senderDevice: room.bo.account.deviceID,
                                                     senderEd25519: UnpaddedBase64.encode(peer.ed25519Key), recipient: room.ann.account.userID,
                                                     recipientEd25519: keys.device.fingerprint)
            let message = try session.encrypt(plaintext, random: &random)
            XCTAssertEqual(keys.take(["to_device": ["events": [[
                "type": "m.room.encrypted", "sender": .string(bo),
                "content": ["algorithm": "m.olm.v1.curve25519-aes-sha2", "sender_key": .string(peerCurve),
                            "ciphertext": .object([keys.device.identityKey: ["type": .number(Double(message.kind.rawValue)), "body": .string(message.body)]])],
            ]]]]), [])
        }
        var older = try newSession()
        try send(over: &older)
        var newer = try newSession()
        try send(over: &newer)
        // The older session is used again last: still the newer one carries our key.
        try send(over: &older)
        XCTAssertEqual(sessionCount(keys, with: peerCurve), 2)

        _ = try keys.encrypt(type: "m.room.message", content: ["msgtype": "m.text", "body": "to the newest"], roomID: room.room,
                             members: [room.ann.account.userID, bo], settings: ["algorithm": "m.megolm.v1.aes-sha2"])
        let events = (try room.bo.other.sync()["to_device"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        let ours = try XCTUnwrap(events.lazy.compactMap { (($0["content"] as? [String: Any])?["ciphertext"] as? [String: Any])?[peerCurve] as? [String: Any] }.first,
                                 "the room key went to the peer")
        let message = try XCTUnwrap(OlmEncryptedMessage(type: XCTUnwrap(ours["type"] as? Int), body: XCTUnwrap(ours["body"] as? String)))
        let plaintext = try XCTUnwrap(try? newer.decrypt(message), "sent over the newer session")
        XCTAssertEqual(try JSONValue(parsing: Data(plaintext))["type"]?.string, "m.room_key")
    }
}
