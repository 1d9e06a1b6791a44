import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Senders' trust beside their names, as the screen shows it: a quiet `✓` for a verified sender,
/// a small `?` for an unverified one, the loud `⚠ identity changed` in place of either; nothing
/// where the source has nothing to say (a clear room). The marks keep to the name in every form.
final class SenderTrustHeaderTests: XCTestCase {
    private func texts(_ header: CommentHeaderLayout) -> [String] {
        header.rows.map { row in
            var out = ""
            for (n, piece) in row.enumerated() {
                if n > 0, piece != .separator, row[n - 1] != .separator { out += " " }
                out += CommentHeaderLayout.text(of: piece, time: "5m ago").text
            }
            return out
        }
    }

    func testTheMarkFollowsTheNameInEveryFormAndAChangeReplacesIt() {
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, trust: .verified, width: 60)), ["Bo ✓ @bo · 5m ago"])
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, trust: .unverified,
                                                 width: 7 + RelativeTime.maximumWidth)), ["Bo ? · 5m ago", "@bo"])
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo Bergström", handle: "bo", edited: false, trust: .unverified, width: 14)),
                       ["Bo Bergström ?", "@bo", "5m ago"])
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Maximiliane Alexandra", handle: nil, edited: false, trust: .verified, width: 16)),
                       ["Maximiliane A… ✓", "5m ago"], "a name cut keeps room for its mark")
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, trust: .identityChanged, width: 60)),
                       ["Bo ⚠ identity changed @bo · 5m ago"], "the loud piece alone")
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, identityChanged: true, trust: .verified, width: 60)),
                       ["Bo ⚠ identity changed @bo · 5m ago"])
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, width: 60)), ["Bo @bo · 5m ago"], "a clear room")
    }

    func testTheFeedShowsEachSendersTrustBesideTheirName() throws {
        let eve = User(id: "u4", handle: "eve", name: "Eve\u{1B}[2J\u{07}")
        var fixture = ThreadFixture(title: "Design", users: [ThreadFixture.ann, ThreadFixture.bo, ThreadFixture.cy, eve])
        for (n, written) in [("u1", "mine"), ("u2", "his"), ("u3", "doubtful"), ("u4", "hostile name")].enumerated() {
            fixture.add(Comment(id: "c\(n)", author: written.0, created: ThreadFixture.start.addingTimeInterval(Double(n) * 60), body: written.1))
        }
        let source = try QueuedThreadSource(thread: fixture.thread)
        source.trust = ["u1": .verified, "u2": .unverified, "u3": .identityChanged, "u4": .unverified]
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 60, rows: 20)
        app.wallTime = ThreadFixture.now
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 20))
        pilot.draw()
        let lines = pilot.screen.lines
        XCTAssertEqual(Array(lines[3 ..< 14]), [
            " Ann ✓ @ann · 2025-04-17",
            "   mine",
            "",
            " Bo 日本 ? @bo · 2025-04-17",
            "   his",
            "",
            " Cy ⚠ identity changed @cy · 2025-04-17",
            "   doubtful",
            "",
            " Eve␛[2J␇ ? @eve · 2025-04-17",
            "   hostile name",
        ], lines.joined(separator: "\n"))
        // Quiet, small, loud.
        XCTAssertEqual(pilot.screen.screen[5, 3].style, Theme.senderVerified)
        XCTAssertEqual(pilot.screen.screen[9, 6].style, Theme.senderUnverified)
        XCTAssertEqual(pilot.screen.screen[4, 9].style, Theme.identityChanged)
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "no escape reaches the screen")
    }
}
