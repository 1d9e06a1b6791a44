import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The bell in a room, against the real Synapse: it rings for what Matrix's push rules call a
/// mention of the reader, not only for pills.
final class MatrixBellTests: SharedSynapseTestCase {
    func testTheBellRingsForMentionsTheRoomAndTheReadersNameNotOnlyForPills() throws {
        let server = try server
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let ann = try registerUser("ann", displayName: "Ann Lee", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        let room = try bo.other.createRoom(name: "Bells", preset: .publicChat)
        _ = try ann.other.join(room)
        _ = try carol.other.join(room)
        try bo.other.sendText(roomID: room, body: "post")
        let source = try open(room, as: ann)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))

        /// Sends `content` as `sender` and says whether the bell rang when it arrived.
        func rings(_ content: [String: Any], from sender: MatrixTestUser, _ label: String) throws -> Bool {
            var content = content
            content["msgtype"] = "m.text"
            let event = try sender.other.send(roomID: room, content: content)
            let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.id == event } }
            let before = pilot.screen.bellCount
            app.receive(updates)
            pilot.draw()
            return pilot.screen.bellCount > before
        }
        XCTAssertTrue(try rings(["body": "can you look", "m.mentions": ["user_ids": [ann.account.userID]]], from: bo, "m.mentions"),
                      "m.mentions naming us, no pill")
        XCTAssertTrue(try rings(["body": "everyone, the release", "m.mentions": ["room": true]], from: bo, "room"),
                      "@room from the room's creator (above every level in room version 12)")
        XCTAssertFalse(try rings(["body": "@room wake up", "m.mentions": ["room": true]], from: carol, "room by carol"),
                       "@room from a member below notifications.room (50)")
        XCTAssertTrue(try rings(["body": "ann lee, are you there?"], from: carol, "display name"),
                      "our display name in a plain body without m.mentions")
        XCTAssertFalse(try rings(["body": "Ann Leeds is a city"], from: carol, "longer word"), "a longer word is not our name")
        XCTAssertFalse(try rings(["body": "Ann Lee said so", "m.mentions": [String: Any]()], from: bo, "empty mentions"),
                       "m.mentions present and empty: the name rule is off (Matrix 1.7)")
        XCTAssertTrue(try rings(["body": "@room (old client)"], from: bo, "legacy room"), "@room without m.mentions from the creator")

        // The room lets everyone notify it: carol's @room rings now.
        let current = try XCTUnwrap(bo.client.stateContent(room: room, type: "m.room.power_levels"))
        var levels = try XCTUnwrap(JSONSerialization.jsonObject(with: current.serialized()) as? [String: Any])
        levels["notifications"] = ["room": 0]
        try bo.other.sendState(roomID: room, type: "m.room.power_levels", content: levels)
        XCTAssertTrue(try rings(["body": "lunch", "m.mentions": ["room": true]], from: carol, "room by carol, permitted"))
    }
}
