import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// A post's summary under its root in the room's feed: reply count, the newest replier and when,
/// the unread mark; a hostile name as placeholders; changed without laying the text out again.
final class FeedPostSummaryTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "a": Theme.authorName, "o": Theme.ownName, "h": Theme.handle, "d": Theme.dim, "u": Theme.unreadDivider, "m": Theme.mention,
    ]

    /// A feed over three numbered comments, with `summaries` by comment id.
    private func draw(_ summaries: [String: PostSummary], reactions: [String: [ReactionCount]] = [:], width: Int = 44, rows: Int = 6) -> CellBuffer {
        let thread = ThreadFixture.numbered(3).thread
        let layout = FeedLayout(width: width)
        let source = FeedLayout.Source(
            item: { .comment(thread.comments[$0]) }, user: { thread.user(id: $0) }, handleID: { _ in nil },
            isExpanded: { _ in false }, reactions: { reactions[$0] ?? [] }, postSummary: { summaries[$0] })
        let view = FeedView(anchor: .top, commentCount: 3, postRows: 0, ownUserID: "u1", selected: nil, now: ThreadFixture.now,
                            layout: { layout.layout(of: $0, source) }, revealed: { _ in [] })
        var buffer = CellBuffer(columns: width, rows: rows)
        view.draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: width, height: rows))
        return buffer
    }

    private func summary(_ count: Int, name: String = "Cy", minutesAgo: Double = 5, unread: Bool = false, unreadCount: Int = 0,
                         mentions: Int = 0) -> PostSummary {
        PostSummary(replyCount: count, latestAuthor: "@cy:h.org", latestName: name,
                    latestAt: ThreadFixture.now.addingTimeInterval(-60 * minutesAgo),
                    isUnread: unread, unreadCount: unreadCount, mentionCount: mentions)
    }

    func testASummaryShowsUnderTheRootWithItsUnreadMark() {
        assertScreen(draw(["c1": summary(3, unread: true, unreadCount: 2, mentions: 1)]), [
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
            "   comment number 1", "",
            "   ↳ 3 replies · Cy 5m ago · ● 2 new @1", "   ddddddddddddddaaddddddduuuuuuuuuummm",
            "", "",
            " Ann @ann · 2025-04-17", " ooo hhhhddddddddddddd",
            "   comment number 2", "",
        ], legend: legend)
    }

    /// Read: no mark; one reply: "reply"; under the reactions, which keep their row.
    func testAReadSummaryHasNoMarkAndSitsUnderTheReactions() {
        let buffer = draw(["c1": summary(1, minutesAgo: 120)], reactions: ["c1": [ReactionCount(key: "ok", count: 2, includesMine: false)]])
        assertScreen(buffer, [
            " Bo 日本 @bo · 2025-04-17", " aaaaaaa hhhddddddddddddd",
            "   comment number 1", "",
            "   ok 2", "     dd",
            "   ↳ 1 reply · Cy 2h ago", "   ddddddddddddaaddddddd",
            "", "",
            " Ann @ann · 2025-04-17", " ooo hhhhddddddddddddd",
        ], legend: legend)
    }

    /// A name carrying an escape sequence and a bidi override reaches the screen as
    /// placeholders, and a long one is cut.
    func testAHostileNameShowsAsPlaceholdersAndALongOneIsCut() {
        let buffer = draw(["c1": summary(2, name: "\u{1B}[2J\u{202E}x")], rows: 3)
        XCTAssertEqual(ScreenLines(buffer).rows[2].text, "   ↳ 2 replies · ␛[2J�x 5m ago")
        for column in 0..<buffer.columns {
            XCTAssertFalse(buffer[column, 2].text.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "column \(column)")
        }
        let long = PostSummaryLine(summary(2, name: String(repeating: "long", count: 1000)))
        XCTAssertEqual(long.name.count, PostSummaryLine.nameColumns)
        XCTAssertTrue(long.name.hasSuffix("…"))
    }

    /// Through the app: a summary arriving draws the line under the root without laying out
    /// its text again; none takes the line away.
    func testTheAppDrawsASummaryAsItArrivesAndTakesItAway() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 44, rows: 16)
        pilot.app.receive([])
        pilot.draw()
        let before = pilot.app.feed.bytesLaidOut
        XCTAssertGreaterThan(before, 0)
        pilot.app.receive([.postSummaryChanged(commentID: "c2", summary(4))])
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("   ↳ 4 replies · Cy ") }, "\(pilot.lines)")
        XCTAssertEqual(pilot.app.feed.bytesLaidOut, before, "the text is not laid out again")
        pilot.app.receive([.postSummaryChanged(commentID: "c2", nil)])
        pilot.draw()
        XCTAssertFalse(pilot.lines.contains { $0.contains("↳") }, "\(pilot.lines)")
    }
}
