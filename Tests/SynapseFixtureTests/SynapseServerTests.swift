import Foundation
import SynapseFixture
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// One real Synapse for the class: two users, a room, a message seen by /messages and /sync, a restart.
final class SynapseServerTests: XCTestCase {
    /// Set in `class setUp` and cleared in `class tearDown`; XCTest runs those and the tests on one thread.
    nonisolated(unsafe) private static var shared: SynapseServer?

    override class func setUp() {
        super.setUp()
        let server = SynapseServer()
        do {
            try server.start()
            shared = server
        } catch {
            // Recorded by every test through `server()` below, never skipped.
            startFailure = "\(error)"
        }
    }

    nonisolated(unsafe) private static var startFailure: String?

    override class func tearDown() {
        shared?.stop()
        shared = nil
        super.tearDown()
    }

    private func server() throws -> SynapseServer {
        if let failure = Self.startFailure { XCTFail(failure) }
        return try XCTUnwrap(Self.shared, "Synapse did not start")
    }

    func testAnotherUserSeesAMessageThroughMessagesAndSync() throws {
        let server = try server()
        let ann = try server.register(localpart: "ann\(Self.suffix())", displayName: "Ann")
        let bob = try server.register(localpart: "bob\(Self.suffix())")
        XCTAssertTrue(ann.userID.hasSuffix(":\(server.serverName)"), ann.userID)
        let annClient = server.client(for: ann)
        let bobClient = server.client(for: bob)
        let alias = "lobby\(Self.suffix())"
        let roomID = try annClient.createRoom(name: "Lobby", preset: .publicChat, alias: alias)
        XCTAssertEqual(try bobClient.join("#\(alias):\(server.serverName)"), roomID)
        let bobSince = try XCTUnwrap(try bobClient.sync()["next_batch"] as? String)

        let eventID = try annClient.sendText(roomID: roomID, body: "hello from ann")

        XCTAssertEqual(try bobClient.messageBodies(roomID: roomID), ["hello from ann"])
        let sync = try bobClient.sync(since: bobSince, timeout: 5000)
        let rooms = try XCTUnwrap((sync["rooms"] as? [String: Any])?["join"] as? [String: Any])
        let timeline = try XCTUnwrap(((rooms[roomID] as? [String: Any])?["timeline"] as? [String: Any])?["events"] as? [[String: Any]])
        let message = try XCTUnwrap(timeline.first { $0["event_id"] as? String == eventID })
        XCTAssertEqual(message["sender"] as? String, ann.userID)
        XCTAssertEqual((message["content"] as? [String: Any])?["body"] as? String, "hello from ann")
    }

    func testMatrixErrorsCarryTheErrcode() throws {
        let server = try server()
        let ann = try server.register(localpart: "eve\(Self.suffix())")
        XCTAssertThrowsError(try server.client(for: ann).join("!nosuchroom:\(server.serverName)")) { error in
            let matrixError = error as? MatrixRequestError
            XCTAssertNotNil(matrixError, "\(error)")
            XCTAssertGreaterThanOrEqual(matrixError?.status ?? 0, 400)
            XCTAssertFalse(matrixError?.errcode.isEmpty ?? true)
        }
    }

    func testRedactionAndStateReachTheOtherUser() throws {
        let server = try server()
        let ann = try server.register(localpart: "ann\(Self.suffix())")
        let bob = try server.register(localpart: "bob\(Self.suffix())")
        let annClient = server.client(for: ann)
        let roomID = try annClient.createRoom(name: "Private")
        try annClient.invite(roomID: roomID, userID: bob.userID)
        try server.client(for: bob).join(roomID)
        let eventID = try annClient.sendText(roomID: roomID, body: "oops")
        try annClient.redact(roomID: roomID, eventID: eventID, reason: "typo")
        try annClient.sendState(roomID: roomID, type: "m.room.topic", content: ["topic": "Plans"])
        let events = try server.client(for: bob).messages(roomID: roomID, dir: "f")
        let redacted = try XCTUnwrap(events.first { $0["event_id"] as? String == eventID })
        XCTAssertEqual((redacted["content"] as? [String: Any])?.count, 0)
        XCTAssertTrue(events.contains { $0["type"] as? String == "m.room.topic" })
    }

    /// Unique localparts, so tests sharing the class's server do not collide.
    private static func suffix() -> String {
        String(UUID().uuidString.prefix(8)).lowercased()
    }
}
