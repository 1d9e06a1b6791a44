import XCTest
import ScrollEngine
import CommentTUITestSupport
@testable import CommentTUI

/// The Ctrl-K switcher: its model and its overlay, read as the screen shows it.
final class ThreadSwitcherTests: XCTestCase {
    private typealias F = HomeFixture
    private let legend: [Character: CellStyle] = [
        "t": Theme.pickerTitle, "T": Theme.pickerTitle.adding(.bold),
        "w": Theme.pickerRow, "W": Theme.pickerRow.adding(.bold), "v": Theme.pickerRow.adding(.underline),
        "V": Theme.pickerRow.adding([.bold, .underline]),
        "h": Theme.pickerHighlight, "H": Theme.pickerHighlight.adding(.bold), "u": Theme.pickerHighlight.adding(.underline),
        "U": Theme.pickerHighlight.adding([.bold, .underline]),
    ]
    private let threads = [
        F.room("Café Society", minutesAgo: 1, unread: 4, highlights: 2), F.room("Design review", minutesAgo: 2, encrypted: true),
        F.room("Invited", minutesAgo: 3, inviter: "Ann"), F.room("Board", minutesAgo: 4), F.room("Cafeteria", minutesAgo: 5),
    ]

    /// A switcher over `threads` with `current` on screen, over a `columns`×`rows` screen of dots.
    private func switcher(current: ThreadKey? = nil, columns: Int = 44, rows: Int = 9) -> ThreadSwitcher {
        let switcher = ThreadSwitcher(summaries: threads, current: current)
        switcher.place(over: CellRect(column: 0, row: 0, width: columns, height: rows))
        return switcher
    }

    private func draw(_ switcher: ThreadSwitcher, columns: Int = 44, rows: Int = 9) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: rows)
        for row in 0..<rows { buffer.write(String(repeating: ".", count: columns), column: 0, row: row) }
        ThreadSwitcherView(switcher: switcher).draw(into: &buffer)
        return buffer
    }

    private func type(_ text: String, into switcher: ThreadSwitcher) {
        for character in text { XCTAssertTrue(switcher.handle(KeyPress(.character(character))).taken) }
    }

    func testItListsEveryThreadNewestFirstWithTheOneOnScreenLast() {
        let switcher = switcher(current: F.key("Café Society"))
        assertScreen(draw(switcher), [
            "............................................", "",
            ".. › 5 threads · Enter opens · Esc        ..", "  tttttttttttttttttttttttttttttttttttttttt",
            ".. ▸ Design review 🔒                     ..", "  hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "..   Invited                       invite ..", "  wwwWWWWWWWwwwwwwwwwwwwwwwwwwwwwwWWWWWWWW",
            "..   Board                                ..", "  wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "..   Cafeteria                            ..", "  wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "..   Café Society                    4 @2 ..", "  wwwWWWWWWWWWWWWwwwwwwwwwwwwwwwwwwwWWWWWW",
            "............................................", "",
            "............................................", "",
        ], legend: legend)
        XCTAssertEqual(switcher.perform(.open), .open(F.key("Design review")), "Enter at once goes to the thread read before")
    }

    func testTypingNarrowsTheMatchesRankedAsHomesFilterAndUnderlinesThem() {
        let switcher = switcher()
        type("caf", into: switcher)
        assertScreen(draw(switcher), [
            "............................................", "",
            ".. › caf · 2 threads · Enter opens · Esc  ..", "  tttTTTtttttttttttttttttttttttttttttttttt",
            ".. ▸ Café Society                    4 @2 ..", "  hhhUUUHHHHHHHHHhhhhhhhhhhhhhhhhhhhHHHHHH",
            "..   Cafeteria                            ..", "  wwwvvvwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "............................................", "",
            "............................................", "",
            "............................................", "",
            "............................................", "",
            "............................................", "",
        ], legend: legend)
        XCTAssertEqual(switcher.handle(KeyPress(.down)).effect, nil)
        XCTAssertEqual(switcher.handle(KeyPress(.enter)).effect, .open(F.key("Cafeteria")))
        XCTAssertEqual(switcher.handle(KeyPress(.escape)).effect, .close)
    }

    func testNoMatchAndEditingTheQuery() {
        let switcher = switcher()
        type("zq", into: switcher)
        assertScreen(draw(switcher, rows: 4), [
            "............................................", "",
            ".. › zq · none · Esc closes               ..", "  tttTTttttttttttttttttttttttttttttttttttt",
            "..   no thread matches                    ..", "  wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "............................................", "",
        ], legend: legend)
        XCTAssertNil(switcher.handle(KeyPress(.enter)).effect, "nothing to open")
        _ = switcher.handle(KeyPress(.backspace))
        XCTAssertEqual(switcher.query, "z")
        _ = switcher.handle(.ctrl("u"))
        XCTAssertEqual(switcher.query, "")
        XCTAssertEqual(switcher.total, 5)
        switcher.paste("Bo\nard\u{1B}")
        XCTAssertEqual(switcher.query, "Bo ard")
        XCTAssertFalse(switcher.handle(.ctrl("c")).taken, "the client's keys are the coordinator's")
    }

    func testAClickOpensAMatchAndAClickOutsideCloses() {
        let switcher = switcher(current: F.key("Café Society"))
        XCTAssertEqual(switcher.handle(MouseEvent(.left, .release, column: 10, row: 2)), .open(F.key("Design review")))
        XCTAssertEqual(switcher.handle(MouseEvent(.left, .release, column: 1, row: 4)), .close)
        XCTAssertNil(switcher.handle(MouseEvent(.wheelDown, .press, column: 10, row: 4)))
        XCTAssertEqual(switcher.highlightedKey, F.key("Invited"), "the wheel moves the highlight")
    }

    func testANarrowTerminalKeepsTheNamesAndCutsThemWhole() {
        let switcher = ThreadSwitcher(summaries: [F.room("日本語のとても長いスレッドの名前です", minutesAgo: 1, unread: 3), F.room("Board", minutesAgo: 2)], current: nil)
        switcher.place(over: CellRect(column: 0, row: 0, width: 30, height: 4))
        assertScreen(draw(switcher, columns: 30, rows: 4), [
            " › 2 threads                  ", "tttttttttttttttttttttttttttttt",
            " ▸ 日本語のとても長いスレ…  3 ", "hhhHHHHHHHHHHHHHHHHHHHHHHHhHHH",
            "   Board                      ", "wwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
            "..............................", "",
        ], legend: legend)
    }

    func testNewSummariesWhileOpenKeepTheHighlightedThread() {
        let switcher = switcher()
        _ = switcher.perform(.down)
        XCTAssertEqual(switcher.highlightedKey, F.key("Design review"))
        switcher.update(summaries: [F.room("Board", minutesAgo: 0)] + threads.filter { $0.name != "Board" })
        XCTAssertEqual(switcher.summary(ofMatch: 0).name, "Board")
        XCTAssertEqual(switcher.highlightedKey, F.key("Design review"))
    }
}
