import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The room's state followed live, against the real Synapse, with a reader's pauses between the
/// changes: a rename retitles the header, a new pinned post replaces the post, and a member who
/// leaves is no longer offered in the @ list (until they join again) while their comment keeps
/// their name.
final class MatrixRoomStateTests: SharedSynapseTestCase {
    func testRenamesANewPinnedPostAndLeavesAreFollowedLive() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Before", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        let firstPost = try bo.other.sendText(roomID: room, body: "The first post")
        try bo.other.sendState(roomID: room, type: "m.room.pinned_events", content: ["pinned": [firstPost]])
        try carol.other.sendText(roomID: room, body: "carol was here")
        let source = try open(room, as: ann)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        pilot.settle()
        XCTAssertTrue(pilot.lines[0].hasPrefix(" Before"), pilot.lines[0])
        XCTAssertTrue(pilot.lines.joined(separator: "\n").contains("The first post"))

        /// Waits for the source to report what `done` looks for, hands it all to the app, and
        /// lets a second pass as the reader looks.
        func arrives(_ what: String, _ done: @escaping (ThreadUpdate) -> Bool) throws {
            let updates = try collectUpdates(from: source, timeout: 20) { $0.contains(where: done) }
            app.receive(updates)
            pilot.advance(by: 1)
            pilot.runFrames()
        }
        func mentionable() -> [String] {
            pilot.type("@")
            let ids = app.mentionResults?.matches.map(\.user.id) ?? []
            pilot.press(.escape)
            pilot.press(.backspace)
            return ids
        }
        XCTAssertEqual(Set(mentionable()), [bo.account.userID, carol.account.userID])

        try bo.other.sendState(roomID: room, type: "m.room.name", content: ["name": "After"])
        try arrives("rename") { if case .headerChanged = $0 { true } else { false } }
        XCTAssertTrue(pilot.lines[0].hasPrefix(" After"), pilot.lines[0])
        XCTAssertTrue(pilot.lines[pilot.lines.count - 1].contains("After"), "the status bar follows: " + pilot.lines[pilot.lines.count - 1])

        // Element appends a new pin to the list: the newest pin is the post.
        let newPost = try bo.other.sendText(roomID: room, body: "The new post")
        try bo.other.sendState(roomID: room, type: "m.room.pinned_events", content: ["pinned": [firstPost, newPost]])
        try arrives("pin") { if case .headerChanged(_, let body) = $0 { body == "The new post" } else { false } }
        pilot.press(.ctrlHome)
        pilot.settle()
        let screen = pilot.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("The new post") && !screen.contains("The first post"), screen)

        // A removed name leaves the room id (this room has no alias), in the header and the bar.
        try bo.other.sendState(roomID: room, type: "m.room.name", content: ["name": ""])
        try arrives("name removed") { if case .headerChanged(let title, _) = $0 { title == room } else { false } }
        XCTAssertFalse(pilot.lines.joined(separator: "\n").contains("After"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(source.label, room)

        try carol.other.leave(roomID: room)
        try arrives("leave") { if case .membersChanged(_, let left) = $0 { left == [carol.account.userID] } else { false } }
        XCTAssertEqual(mentionable(), [bo.account.userID], "who left is not offered")
        XCTAssertTrue(pilot.lines.contains { $0.contains("Carol") }, "her comment keeps her name:\n" + pilot.lines.joined(separator: "\n"))

        _ = try carol.other.join(room)
        try arrives("join") { if case .membersChanged(let joined, _) = $0 { joined == [carol.account.userID] } else { false } }
        XCTAssertEqual(Set(mentionable()), [bo.account.userID, carol.account.userID])
    }

    func testWhoLeftBeforeTheRoomOpensIsNotOfferedAsAMention() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Left before", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        try bo.other.sendText(roomID: room, body: "post")
        try carol.other.sendText(roomID: room, body: "goodbye all")
        try carol.other.leave(roomID: room)
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        try collectUpdates(from: source) { $0.contains { if case .membersChanged = $0 { true } else { false } } }.forEach { app.receive([$0]) }
        pilot.settle()
        pilot.type("@")
        XCTAssertEqual(app.mentionResults?.matches.map(\.user.id), [bo.account.userID])
        XCTAssertTrue(pilot.lines.contains { $0.contains("Carol") }, "her comment keeps her name:\n" + pilot.lines.joined(separator: "\n"))
    }
}
