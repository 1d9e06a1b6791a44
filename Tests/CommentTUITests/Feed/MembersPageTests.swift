import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// F4's page of members, as the screen shows it: the reader first, each member's trust in words
/// with their comments' mark, each device under them cross-signed by its owner or not; hostile
/// names and device names with their controls as placeholders; a clear room says there is
/// nothing to show.
final class MembersPageTests: XCTestCase {
    private func opened(encrypted: Bool) throws -> Pilot {
        let eve = User(id: "u4", handle: "eve", name: "Eve\u{1B}]0;owned\u{07}")
        var fixture = ThreadFixture(title: "Design", users: [ThreadFixture.bo, ThreadFixture.ann, ThreadFixture.cy, eve])
        fixture.add(Comment(id: "c1", author: "u2", created: ThreadFixture.start, body: "hello"))
        let source = try QueuedThreadSource(thread: fixture.thread)
        source.encrypted = encrypted
        source.trust = ["u1": .verified, "u2": .unverified, "u3": .identityChanged]
        source.devices = [
            "u1": [MemberDevice(deviceID: "ANNLAPTOP", name: "comment-tui", crossSigned: true)],
            "u2": [MemberDevice(deviceID: "BOPHONE", name: "Element iOS", crossSigned: true),
                   MemberDevice(deviceID: "BOOLD", name: nil, crossSigned: false)],
            "u4": [MemberDevice(deviceID: "EVE\u{1B}[2J", name: "\u{1B}[31mred\u{9B}1m", crossSigned: false)],
        ]
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 64, rows: 16)
        app.wallTime = ThreadFixture.now
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 64, rows: 16))
        pilot.draw()
        return pilot
    }

    func testF4ListsEachMembersTrustAndDevices() throws {
        let pilot = try opened(encrypted: true)
        pilot.feed("\u{1B}OS")
        pilot.draw()
        let lines = pilot.screen.lines
        XCTAssertEqual(Array(lines[0 ..< 10]), [
            " Members · devices and trust",
            " Ann (you)      ✓ verified",
            "                ANNLAPTOP “comment-tui” · ✓ signed by its owner",
            " Bo 日本        ? not verified",
            "                BOPHONE “Element iOS” · ✓ signed by its owner",
            "                BOOLD · ? not signed by its owner",
            " Cy             ⚠ identity changed",
            " Eve␛]0;owned␇  devices not read yet",
            "                EVE␛[2J “␛[31mred\u{FFFD}1m” · ? not signed by its",
            "                owner",
        ], lines.joined(separator: "\n"))
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "no escape reaches the screen")
        pilot.feed("\u{1B}OS")
        pilot.draw()
        XCTAssertTrue(pilot.screen.lines.joined().contains("hello"), "F4 again closes it")
    }

    func testAClearRoomSaysThereIsNothingToShow() throws {
        let pilot = try opened(encrypted: false)
        pilot.feed("\u{1B}OS")
        pilot.draw()
        XCTAssertTrue(pilot.screen.lines.contains { $0.contains("members' devices and trust are shown in encrypted rooms") },
                      pilot.screen.lines.joined(separator: "\n"))
    }
}
