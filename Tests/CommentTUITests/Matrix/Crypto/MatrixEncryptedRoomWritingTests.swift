import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Writing to an encrypted room through the real thread source, against Synapse, with
/// matrix-nio (vodozemac) reading: our comments leave encrypted (no plaintext on the server),
/// their key goes to nio's device over Olm, nio decrypts them; the session rotates as the
/// room's settings say and when a member leaves; a restart goes on with the stored session.
final class MatrixEncryptedRoomWritingTests: SharedSynapseTestCase {
    /// Sends `bodies` as Ann, one after another as a person would, each confirmed by the server.
    @discardableResult
    private func annSends(_ bodies: [String], through source: MatrixThreadSource, as room: EncryptedRoom) throws -> [Comment] {
        try bodies.map { body in
            let sent = comment(by: room.ann, body)
            XCTAssertEqual(source.send(sent), .pending)
            try collectUpdates(from: source, timeout: 30) { updates in
                updates.contains { if case .sendConfirmed(sent.id) = $0 { true } else { false } }
            }
            return sent
        }
    }

    /// Ann's events in the room as the server holds them, oldest first.
    private func annsEvents(in room: EncryptedRoom) throws -> [[String: Any]] {
        try room.bo.other.messages(roomID: room.room, limit: 500).reversed().filter { $0["sender"] as? String == room.ann.account.userID }
    }

    /// The bodies of Ann's messages as nio reads them, and how many nio could not open.
    private func nioReads(_ room: EncryptedRoom, limit: Int = 50) throws -> (bodies: [String], undecrypted: Int) {
        let result = try XCTUnwrap(room.nio.run([.messages(room: room.room, limit: limit)]).first)
        let messages = try XCTUnwrap(result["messages"] as? [[String: Any]], "\(result)")
        let ours = messages.filter { ($0["event_id"] as? String).map { _ in true } ?? false }
        let bodies = ours.compactMap { $0["decrypted"] as? Bool == true ? $0["body"] as? String : nil }
        return (bodies, try XCTUnwrap(result["undecrypted"] as? Int))
    }

    private func sessionIDs(_ events: [[String: Any]]) -> [String] {
        events.compactMap { ($0["content"] as? [String: Any])?["session_id"] as? String }
    }

    func testOurCommentsLeaveEncryptedAndNioReadsThem() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        try nioSends(["hello, Ann"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        XCTAssertNil(source.sendingHeld, "with the account's keys the room takes comments")
        XCTAssertTrue(source.isEndToEndEncrypted)

        let bodies = ["the first secret", "the second secret", "a third *with* Markdown"]
        try annSends(bodies, through: source, as: room)
        let events = try annsEvents(in: room).filter { $0["type"] as? String != "m.room.member" }
        XCTAssertEqual(events.map { $0["type"] as? String }, Array(repeating: "m.room.encrypted", count: 3))
        let raw = String(decoding: try JSONSerialization.data(withJSONObject: events), as: UTF8.self)
        XCTAssertFalse(raw.contains("secret"), "no plaintext on the server")
        XCTAssertEqual(Set(sessionIDs(events)).count, 1, "one session while the room's settings allow")

        let read = try nioReads(room)
        XCTAssertEqual(read.undecrypted, 0, "nio opened everything")
        XCTAssertEqual(read.bodies, ["hello, Ann"] + ["the first secret", "the second secret", "a third *with* Markdown"])

        // Our own echoes read back: a new opening shows them decrypted, from our inbound copy.
        source.stop()
        let (again, other) = try open(room, keys: keys)
        defer { again.stop(); other.stop() }
        XCTAssertEqual(opened(again).map(\.body).suffix(3), ["the first secret", "the second secret", "a third *with* Markdown"])
    }

    func testTheSessionRotatesAfterTheRoomsMessageCountAndNioReadsAcrossIt() throws {
        let room = try encryptedRoom(rotationMessages: 2)
        let keys = try keys(of: room)
        try nioSends(["rotate often"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let bodies = (1 ... 5).map { "message \($0)" }
        try annSends(bodies, through: source, as: room)

        let sessions = sessionIDs(try annsEvents(in: room).filter { $0["type"] as? String != "m.room.member" })
        XCTAssertEqual(sessions.count, 5)
        XCTAssertEqual(Set(sessions).count, 3, "two messages per session: \(sessions)")
        XCTAssertEqual(sessions[0], sessions[1])
        XCTAssertNotEqual(sessions[1], sessions[2])
        XCTAssertEqual(sessions[2], sessions[3])
        XCTAssertNotEqual(sessions[3], sessions[4])
        let read = try nioReads(room)
        XCTAssertEqual(read.undecrypted, 0)
        XCTAssertEqual(read.bodies, ["rotate often"] + bodies)
    }

    func testAMemberLeavingRotatesTheSessionAndTheNewKeyIsNotSharedWithThem() throws {
        let room = try encryptedRoom()
        let cy = try registerUser("cy", on: try server)
        let cyFolder = room.folder.appendingPathComponent("cy")
        let cyNio = MatrixNioPeer(homeserver: try server.baseURL, userID: cy.account.userID, password: cy.account.password,
                                  storeFolder: cyFolder.path)
        try room.ann.other.invite(roomID: room.room, userID: cy.account.userID)
        _ = try cy.other.join(room.room)
        let cyDevice = try XCTUnwrap(cyNio.run([.uploadKeys]).first?["device_id"] as? String)
        let keys = try keys(of: room)
        try nioSends(["three of us"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }

        try annSends(["for Bo and Cy"], through: source, as: room)
        let before = try XCTUnwrap(keys.device.store.value(room.room, in: MatrixRoomKeys.outboundSessions))
        XCTAssertEqual(before.sharedWith[cy.account.userID].map { Array($0.keys) }, [cyDevice], "Cy's device had the key")
        XCTAssertEqual(try cyNio.run([.messages(room: room.room, limit: 10)]).first?["messages"].map { "\($0)" }?.contains("for Bo and Cy"), true,
                       "Cy read it")

        try cy.other.leave(roomID: room.room)
        Thread.sleep(forTimeInterval: 1)
        try annSends(["for Bo only"], through: source, as: room)
        let after = try XCTUnwrap(keys.device.store.value(room.room, in: MatrixRoomKeys.outboundSessions))
        XCTAssertNotEqual(after.session.sessionID, before.session.sessionID, "Cy left: a new session")
        XCTAssertNil(after.sharedWith[cy.account.userID], "the new key never went to Cy")
        XCTAssertNotNil(after.sharedWith[room.bo.account.userID])
        XCTAssertEqual(try nioReads(room).bodies.suffix(2), ["for Bo and Cy", "for Bo only"])
    }

    func testADeviceThatMayHaveTheKeyRotatesTheSessionWhenItsOwnerIsGone() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        try nioSends(["hello"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        try annSends(["first"], through: source, as: room)
        // As a share whose send failed after the key went out, or a kill then: a device of a
        // user not in the room any more may have it.
        var stored = try XCTUnwrap(keys.device.store.value(room.room, in: MatrixRoomKeys.outboundSessions))
        stored.mayHave = ["@gone:test.local": ["GONE": "Z29uZQ"]]
        try keys.device.store.put(stored, id: room.room, in: MatrixRoomKeys.outboundSessions)
        try annSends(["second"], through: source, as: room)
        let after = try XCTUnwrap(keys.device.store.value(room.room, in: MatrixRoomKeys.outboundSessions))
        XCTAssertNotEqual(after.session.sessionID, stored.session.sessionID, "rotated: the device that may have the key is gone")
        XCTAssertNil(after.mayHave?["@gone:test.local"])
        XCTAssertNotNil(after.sharedWith[room.bo.account.userID], "confirmed devices move from may-have to have")
        XCTAssertTrue(after.mayHave?.isEmpty ?? true)
    }

    func testARestartGoesOnWithTheStoredSession() throws {
        let room = try encryptedRoom()
        try nioSends(["before the restart"], in: room)
        weak var first: MatrixRoomKeys?
        do {
            let keys = try keys(of: room)
            first = keys
            let (source, sync) = try open(room, keys: keys)
            try annSends(["sent before"], through: source, as: room)
            source.stop()
            sync.stop()
            sync.roomKeys = nil
        }
        // The first run's keys let go of the store (as a process ending would).
        let released = Date().addingTimeInterval(10)
        while first != nil, Date() < released { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertNil(first, "the stopped room let go of its keys")
        let keys = try keys(of: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        try annSends(["sent after"], through: source, as: room)
        let sessions = sessionIDs(try annsEvents(in: room).filter { $0["type"] as? String != "m.room.member" })
        XCTAssertEqual(sessions.count, 2)
        XCTAssertEqual(Set(sessions).count, 1, "the stored session goes on at its next index")
        let read = try nioReads(room)
        XCTAssertEqual(read.undecrypted, 0)
        XCTAssertEqual(read.bodies.suffix(2), ["sent before", "sent after"])
    }

    func testWithoutKeysNothingIsSentAndTheDraftStays() throws {
        let room = try encryptedRoom()
        let source = try MatrixThreadSource(client: room.ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room.room)")),
                                            me: room.ann.account.userID, environment: temporaryDataEnvironment(), usesCache: false)
        defer { source.stop() }
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice)
        XCTAssertEqual(source.send(comment(by: room.ann, "never in the clear")), .failed(MatrixEncryption.refusal))
        XCTAssertThrowsError(try source.post("nor by post", transactionID: "t-post"))
        XCTAssertTrue(try annsEvents(in: room).filter { $0["type"] as? String != "m.room.member" }.isEmpty)
    }
}
