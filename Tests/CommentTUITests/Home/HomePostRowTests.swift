import XCTest
import ScrollEngine
import CommentTUITestSupport
@testable import CommentTUI

/// A room's posts (Matrix threads) listed under the room in home: indented, newest first, each
/// with its replies, its own unread and mention counts, its newest reply; the last says how many
/// more the room has. A post whose room is not listed is not either.
final class HomePostRowTests: XCTestCase {
    private typealias F = HomeFixture
    private let legend: [Character: CellStyle] = [
        "h": Theme.homeHeader, "H": Theme.homeHeader.adding(.bold), "g": Theme.selectionGutter, "B": Theme.homeUnreadName,
        "m": Theme.homeMentionBadge, "d": Theme.dim, "a": Theme.authorName,
    ]

    private func post(_ title: String, in room: String, root: String, minutesAgo: Double, replies: Int, unread: Int = 0,
                      highlights: Int = 0, preview: String, author: String, more: String? = nil) -> ThreadSummary {
        var row = ThreadSummary(key: .post(account: F.account, roomID: "!\(room.lowercased()):example.org", root: root), name: title,
                                preview: preview, author: author, activity: F.now.addingTimeInterval(-60 * minutesAgo),
                                unread: unread, highlights: highlights)
        row.replies = replies
        row.morePosts = more
        return row
    }

    func testPostsShowUnderTheirRoomNewestFirstWithTheirOwnCounts() {
        let list = F.list([
            F.room("Lobby", minutesAgo: 2, unread: 3, highlights: 1, preview: "hello", author: "Bo"),
            F.room("Design", minutesAgo: 1, preview: "plans", author: "Cy"),
            post("Release notes", in: "Lobby", root: "$a", minutesAgo: 30, replies: 1, preview: "ok", author: "Bo", more: "12"),
            post("Which editor?", in: "Lobby", root: "$b", minutesAgo: 2, replies: 14, unread: 2, highlights: 1,
                 preview: "vim, clearly", author: "Cy"),
            post("Orphan", in: "Gone", root: "$c", minutesAgo: 0, replies: 1, preview: "lost", author: "Al"),
        ], columns: 48, rows: 9)
        assertScreen(draw(list), [
            " Home · 2 threads                               ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Design                                  1m ago", "gg                                        dddddd",
            "  Cy: plans", "ggaa",
            "  Lobby                              3 @1 2m ago", "ggBBBBB                              B mm dddddd",
            "  Bo: hello", "ggaa",
            "  ↳ Which editor?         14 replies 2 @1 2m ago", "ggddBBBBBBBBBBBBB         dddddddddd B mm dddddd",
            "    Cy: vim, clearly", "ggddaa",
            "  ↳ Release notes                1 reply 30m ago", "ggdd                             ddddddd ddddddd",
            "    Bo: ok                       · 12 more posts", "ggddaa                          dddddddddddddddd",
        ], legend: legend)
        XCTAssertNil(list.summary(for: .post(account: F.account, roomID: "!gone:example.org", root: "$c")), "its room is not listed")
        XCTAssertEqual(ThreadKey.post(account: F.account, roomID: "!lobby:example.org", root: "$b").postLocator, "matrix:!lobby:example.org/$b")
    }

    /// Alt-L on a post asks nothing: a post is left with its room; Enter opens it by its key.
    func testAPostIsNotLeftAlone() {
        let list = F.list([F.room("Lobby", minutesAgo: 5),
                           post("Which editor?", in: "Lobby", root: "$b", minutesAgo: 2, replies: 1, preview: "vim", author: "Cy")])
        list.press(KeyPress(.down))
        XCTAssertEqual(list.press(.alt("l")), .message("a post is left with its room"))
        XCTAssertNil(list.question)
        XCTAssertEqual(list.press(KeyPress(.enter)), .open(.post(account: F.account, roomID: "!lobby:example.org", root: "$b")))
    }

    /// On a row narrower than `· 12 more posts`, the tail is cut at the row's end, never drawn past it.
    func testTheMorePostsTailStaysInANarrowRow() {
        let list = F.list([F.room("Lobby", minutesAgo: 2),
                           post("Notes", in: "Lobby", root: "$a", minutesAgo: 3, replies: 1, preview: "ok", author: "Bo", more: "12")],
                          columns: 12, rows: 5)
        var buffer = CellBuffer(columns: 30, rows: 5)
        HomeView(list: list, now: F.now).draw(into: &buffer)
        for row in 0..<5 {
            let past = (12..<30).map { buffer[$0, row].text }.joined()
            XCTAssertEqual(past.trimmingCharacters(in: .whitespaces), "", "row \(row) drawn past the list")
        }
    }

    private func draw(_ list: HomeList) -> CellBuffer {
        var buffer = CellBuffer(columns: list.frame.maxColumn, rows: list.frame.maxRow)
        HomeView(list: list, now: F.now).draw(into: &buffer)
        return buffer
    }
}
