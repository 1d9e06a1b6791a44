import XCTest
import ScrollEngine
import CommentTUITestSupport
@testable import CommentTUI

/// Home drawn into a buffer, read as the screen shows it.
final class HomeViewTests: XCTestCase {
    private typealias F = HomeFixture
    private let legend: [Character: CellStyle] = [
        "h": Theme.homeHeader, "H": Theme.homeHeader.adding(.bold), "q": Theme.homeQuestion, "Q": Theme.homeQuestion.adding(.bold),
        "g": Theme.selectionGutter, "B": Theme.homeUnreadName, "U": Theme.homeUnreadName.adding(.underline),
        "n": Theme.homeName.adding(.underline), "m": Theme.homeMentionBadge, "d": Theme.dim,
        // Dim: times, the lock (`Theme.homeMarker`) and a spoiler's mask (`Theme.spoiler`) alike.
        "a": Theme.authorName, "M": Theme.mention, "i": Theme.homeInvite, "o": Theme.quoteText,
        "t": Theme.homeTyping, "c": Theme.code, "I": Theme.body.adding(.italic),
    ]

    private func draw(_ list: HomeList) -> CellBuffer {
        var buffer = CellBuffer(columns: list.frame.maxColumn, rows: list.frame.maxRow)
        HomeView(list: list, now: F.now).draw(into: &buffer)
        return buffer
    }

    func testARowShowsItsNameCountsMentionBadgeTimeAndNewestCommentAsTheFeedRendersIt() {
        let list = F.list([
            F.room("Café Society", minutesAgo: 3, unread: 4, highlights: 2, preview: "hey @ann look: ||the butler|| did it *now*", author: "Bo"),
            F.room("Design review", minutesAgo: 90, preview: "> quoted\n\nsecond line `code`", author: "Ann Lee"),
            F.room("Old", minutesAgo: 60 * 24 * 9, preview: "fine", author: "Al"),
        ], columns: 44, rows: 7)
        assertScreen(draw(list), [
            " Home · 3 threads                           ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Café Society                   4 @2 3m ago", "ggBBBBBBBBBBBB                   B mm dddddd",
            "  Bo: hey @ann look: ░░░░░░░░░░ did it now", "ggaa      MMMM       dddddddddd        III",
            "  Design review                       1h ago", "gg                                    dddddd",
            "  Ann Lee: quoted second line code", "ggaaaaaaa  oooooo             cccc",
            "  Old                             2027-01-06", "gg                                dddddddddd",
            "  Al: fine", "ggaa",
        ], legend: legend)
    }

    func testWhileAnAccountsWholeListIsComingTheHeaderSaysHowManyMore() {
        let list = F.list([F.room("Lobby", minutesAgo: 3), F.room("Design", minutesAgo: 9)], columns: 52, rows: 3)
        list.roomsComing = 440
        assertScreen(draw(list), [
            " Home · 2 threads · 440 more and the counts coming  ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Lobby                                       3m ago", "gg                                            dddddd",
            "  no comments yet", "ggddddddddddddddd",
        ], legend: legend)
        list.roomsComing = 0
        assertScreen(draw(list), [
            " Home · 2 threads · counts coming                   ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Lobby                                       3m ago", "gg                                            dddddd",
            "  no comments yet", "ggddddddddddddddd",
        ], legend: legend)
        list.roomsComing = nil
        assertScreen(draw(list), [
            " Home · 2 threads                                   ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Lobby                                       3m ago", "gg                                            dddddd",
            "  no comments yet", "ggddddddddddddddd",
        ], legend: legend)
    }

    func testTypingEncryptedRoomsAndInvitesHaveTheirMarkers() {
        let list = F.list([
            F.room("Design review", minutesAgo: 90, preview: "hidden by typing", author: "Ann", typing: ["Bo", "Al"], encrypted: true),
            F.room("Crowd", minutesAgo: 100, typing: ["A", "B", "C"]),
            F.room("Secret", minutesAgo: 200, encrypted: true),
            F.room("Invited", minutesAgo: 60 * 24 * 2, inviter: "Ann"),
        ], columns: 40, rows: 9)
        assertScreen(draw(list), [
            " Home · 4 threads                       ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Design review 🔒                1h ago", "gg             ddd                dddddd",
            "  Bo, Al typing…", "ggtttttttttttttt",
            "  Crowd                           1h ago", "gg                                dddddd",
            "  3 people typing…", "ggtttttttttttttttt",
            "  Secret 🔒                       3h ago", "gg      ddd                       dddddd",
            "  encrypted: not readable yet", "ggddddddddddddddddddddddddddd",
            "  Invited                         2d ago", "ggBBBBBBB                         dddddd",
            "  invite from Ann", "ggiiiiiiiiiiiiiii",
        ], legend: legend)
        list.press(KeyPress(.end))
        list.place(in: CellRect(column: 0, row: 0, width: 40, height: 4))
        assertScreen(draw(list), [
            " Home · 4 threads                       ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "  encrypted: not readable yet", "ggddddddddddddddddddddddddddd",
            "▸ Invited                         2d ago", "ggBBBBBBB                         dddddd",
            "  invite from Ann", "ggiiiiiiiiiiiiiii",
        ], legend: legend)
    }

    /// Names, authors and previews with ESC, C1, bidi overrides and BEL show placeholders: no
    /// cell holds a control, so nothing from a thread reaches the terminal as a sequence.
    func testHostileNamesAndPreviewsReachTheScreenAsPlaceholdersOnly() {
        let list = F.list([
            F.room("Evil\u{1B}[2J\u{9B}31m\u{202E}name", minutesAgo: 5, unread: 1,
                   preview: "a\u{1B}]0;pwned\u{7}b\u{202E}c\u{9B}2Jd\r\u{8}e", author: "x\u{1B}[1my"),
            F.room("Inv\u{1B}[5mite", minutesAgo: 6, inviter: "\u{1B}]52;c;AAAA\u{7}Mallory"),
            F.room("Typer", minutesAgo: 7, typing: ["\u{1B}[8mghost\u{2067}"]),
        ], columns: 44, rows: 7)
        let buffer = draw(list)
        assertScreen(buffer, [
            " Home · 3 threads                           ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Evil␛[2J�31m�name                 1 5m ago", "ggBBBBBBBBBBBBBBBBB                 B dddddd",
            "  x␛[1my: a␛]0;pwned␇b�c�2Jd ␈e", "ggaaaaaa",
            "  Inv␛[5mite                          6m ago", "ggBBBBBBBBBB                          dddddd",
            "  invite from ␛]52;c;AAAA␇Mallory", "ggiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
            "  Typer                               7m ago", "gg                                    dddddd",
            "  ␛[8mghost� typing…", "ggtttttttttttttttttt",
        ], legend: legend)
        for row in 0..<buffer.rows {
            for column in 0..<buffer.columns {
                for scalar in buffer[column, row].text.unicodeScalars {
                    let v = scalar.value
                    XCTAssertFalse(v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v),
                                   "a control (U+\(String(v, radix: 16))) in cell \(column),\(row)")
                }
            }
        }
    }

    func testWideNamesAreCutWholeInANarrowTerminal() {
        let list = F.list([
            F.room("Café Society", minutesAgo: 3, unread: 4, highlights: 2, preview: "hey @ann look: ||the butler|| did it", author: "Bo"),
            F.room("日本語のとても長いスレッドの名前です", minutesAgo: 8, unread: 12, preview: "漢字のプレビューがとても長い場合", author: "山田太郎さん"),
            F.room("A very long room name that goes on", minutesAgo: nil, encrypted: true),
        ], columns: 30, rows: 7)
        assertScreen(draw(list), [
            " Home · 3 threads             ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Café Society     4 @2 3m ago", "ggBBBBBBBBBBBB     B mm dddddd",
            "  Bo: hey @ann look: ░░░░░░░░…", "ggaa      MMMM       dddddddd",
            "  日本語のとても長…  12 8m ago", "ggBBBBBBBBBBBBBBBBB  BB dddddd",
            "  山田太郎さん: 漢字のプレビ…", "ggaaaaaaaaaaaa",
            "  A very long room name th… 🔒", "gg                         ddd",
            "  encrypted: not readable yet", "ggddddddddddddddddddddddddddd",
        ], legend: legend)
    }

    func testTheFilterAsTypedAndNoMatch() {
        let list = F.list([F.room("Café Society", minutesAgo: 3), F.room("Board", minutesAgo: 4)], columns: 40, rows: 5)
        list.type("cas")
        assertScreen(draw(list), [
            " Home · cas · 1 of 2 · Esc clears       ", "HHHHHhhhHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "▸ Café Society                    3m ago", "ggnn   n                          dddddd",
            "  no comments yet", "ggddddddddddddddd",
            "", "", "", "",
        ], legend: legend)
        list.type("zz")
        assertScreen(draw(list), [
            " Home · caszz · 0 of 2 · Esc clears     ", "HHHHHhhhHHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "  No thread matches “caszz” · Esc clears", "dddddddddddddddddddddddddddddddddddddddd",
            "", "", "", "", "", "",
        ], legend: legend)
    }

    func testAnEmptyHome() {
        let list = F.list([], columns: 30, rows: 3)
        assertScreen(draw(list), [
            " Home · 0 threads             ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhh",
            "  No threads yet", "dddddddddddddddd",
            "", "",
        ], legend: legend)
    }

    func testTheQuestionTakesTheHeaderRow() {
        let list = F.list([F.room("A room with a very long name indeed", minutesAgo: 3)], columns: 30, rows: 3)
        list.press(.alt("l"))
        assertScreen(draw(list), [
            " Leave A room with a ver…? y/n", "qqqqqqqQQQQQQQQQQQQQQQQQQqqqqq",
            "▸ A room with a very l… 3m ago", "gg                      dddddd",
            "  no comments yet", "ggddddddddddddddd",
        ], legend: legend)
    }

    func testAListScrolledPartWayShowsTheTopThreadsSecondLine() {
        let list = F.list(F.numbered(5), columns: 30, rows: 4)
        _ = list.handle(MouseEvent(.left, .press, column: 3, row: 3))
        _ = list.handle(MouseEvent(.left, .drag, column: 3, row: 2))
        _ = list.handle(MouseEvent(.left, .release, column: 3, row: 2))
        XCTAssertEqual(list.model.contentOffset, 1)
        assertScreen(draw(list), [
            " Home · 5 threads             ", "HHHHHhhhhhhhhhhhhhhhhhhhhhhhhh",
            "  no comments yet", "ggddddddddddddddd",
            "▸ Room 01               2m ago", "gg                      dddddd",
            "  no comments yet", "ggddddddddddddddd",
        ], legend: legend)
    }
}
