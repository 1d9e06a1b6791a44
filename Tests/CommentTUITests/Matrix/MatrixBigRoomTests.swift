import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A room with more history than the opening page, against the real Synapse: the header says
/// its count is of what is loaded, and Ctrl-Home goes on loading until it reaches the post.
final class MatrixBigRoomTests: SharedSynapseTestCase {
    func testCtrlHomeLoadsOnUntilThePostAndTheCountSaysItIsOfWhatIsLoaded() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Long history", on: server)
        let post = try bo.other.sendText(roomID: room, body: "The post of a long room")
        try bo.other.sendState(roomID: room, type: "m.room.pinned_events", content: ["pinned": [post]])
        let count = MatrixThreadSource.pageSize * 3 + 10
        for n in 1...count { try bo.other.sendText(roomID: room, body: "message \(n)") }
        let source = try open(room, as: ann)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        pilot.settle()
        let loaded = app.readableCommentCount
        XCTAssertLessThan(loaded, count)
        XCTAssertTrue(pilot.lines.prefix(2).contains { $0.contains(" \(loaded)+ comments") },
                      "the count is of the \(loaded) loaded:\n" + pilot.lines.prefix(3).joined(separator: "\n"))

        // One Ctrl-Home; then the reader waits, looking once a second, as the pages come in.
        pilot.press(.ctrlHome)
        let deadline = Date().addingTimeInterval(90)
        var seconds = 0
        while app.hasOlderComments || !pilot.lines.joined(separator: "\n").contains("message 1\n"), Date() < deadline {
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 1) }
            app.receive(source.takeUpdates())
            pilot.advance(by: 1)
            pilot.runFrames()
            seconds += 1
        }
        let screen = pilot.lines.joined(separator: "\n")
        XCTAssertFalse(app.hasOlderComments, "the whole history is loaded after \(seconds) s")
        XCTAssertEqual(app.readableCommentCount, count)
        XCTAssertTrue(screen.contains("The post of a long room") && screen.contains("message 1\n"),
                      "the feed is at its top, the post shown:\n\(screen)")
        XCTAssertTrue(screen.contains("\(count) comments") && !screen.contains("+ comments"), screen)
    }
}
