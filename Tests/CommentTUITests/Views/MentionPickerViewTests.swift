import XCTest
import ScrollEngine
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

final class MentionPickerViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "t": Theme.pickerTitle, "T": Theme.pickerTitle.adding(.bold),
        "w": Theme.pickerRow, "W": Theme.pickerRow.adding(.bold), "V": Theme.pickerRow.adding([.bold, .underline]),
        "v": Theme.pickerRow.adding(.underline),
        "h": Theme.pickerHighlight, "H": Theme.pickerHighlight.adding(.bold),
        "U": Theme.pickerHighlight.adding([.bold, .underline]), "u": Theme.pickerHighlight.adding(.underline),
    ]
    private let ranker = MentionRanker(users: [User(id: "u1", handle: "ann", name: "Ann Lee"), User(id: "u2", handle: "bo", name: "Bo")])

    /// The list over a feed of `columns`x`rows` whose cells all show `.`, so transparent rows show.
    private func draw(query: String, columns: Int = 30, rows: Int = 6, moves: Int = 0) -> CellBuffer {
        let picker = MentionPicker(query: query, results: ranker.rank(query, limit: MentionPicker.limit),
                                   feed: CellRect(column: 0, row: 0, width: columns, height: rows), now: .zero)
        picker.moveHighlight(by: moves, at: .zero)
        var buffer = CellBuffer(columns: columns, rows: rows)
        for row in 0..<rows { buffer.write(String(repeating: ".", count: columns), column: 0, row: row) }
        MentionPickerView(picker: picker).draw(into: &buffer)
        return buffer
    }

    func testTheListsColoursArePairsEveryColourTerminalHas() {
        for style in [Theme.pickerRow, Theme.pickerTitle, Theme.pickerHighlight] {
            guard case .palette(let fg) = style.foreground, case .palette(let bg) = style.background else {
                return XCTFail("\(style): the terminal's default colours could be anything (a light theme, 8 colours)")
            }
            XCTAssertLessThan(fg, 8); XCTAssertLessThan(bg, 8); XCTAssertNotEqual(fg, bg)
            XCTAssertFalse(style.attributes.contains(.reverse), "explicit colours, not reverse of unknown ones")
        }
        XCTAssertNotEqual(Theme.pickerRow.background, Theme.pickerHighlight.background, "the highlight stands out")
    }

    func testAShortListStandsOnTheBottomAndLeavesTheFeedAboveIt() {
        assertScreen(draw(query: ""), [
            "..............................", "",
            "..............................", "",
            "..............................", "",
            "─ @ · 2 users ────────────────", "tttttttttttttttttttttttttttttt",
            " ▸ @ann  Ann Lee              ", "hhhHHHHhhhhhhhhhhhhhhhhhhhhhhh",
            "   @bo   Bo                   ", "wwwWWWwwwwwwwwwwwwwwwwwwwwwwww",
        ], legend: legend)
    }

    func testTheHighlightMovesDown() {
        assertScreen(draw(query: "", moves: 1), [
            "..............................", "",
            "..............................", "",
            "..............................", "",
            "─ @ · 2 users ────────────────", "tttttttttttttttttttttttttttttt",
            "   @ann  Ann Lee              ", "wwwWWWWwwwwwwwwwwwwwwwwwwwwwww",
            " ▸ @bo   Bo                   ", "hhhHHHhhhhhhhhhhhhhhhhhhhhhhhh",
        ], legend: legend)
    }

    func testTheMatchedPartOfTheHandleOrNameIsUnderlined() {
        assertScreen(draw(query: "b"), [
            "..............................", "",
            "..............................", "",
            "..............................", "",
            "..............................", "",
            "─ @b · 1 user ────────────────", "tttTtttttttttttttttttttttttttt",
            " ▸ @bo  Bo                    ", "hhhHUHhhhhhhhhhhhhhhhhhhhhhhhh",
        ], legend: legend)
        assertScreen(draw(query: "lee"), [
            "..............................", "",
            "..............................", "",
            "..............................", "",
            "..............................", "",
            "─ @lee · 1 user ──────────────", "tttTTTtttttttttttttttttttttttt",
            " ▸ @ann  Ann Lee              ", "hhhHHHHhhhhhhuuuhhhhhhhhhhhhhh",
        ], legend: legend)
    }

    func testWhereTheyFitTheTitleOffersTheKeys() {
        assertScreen(draw(query: "", columns: 44, rows: 4), [
            "............................................", "",
            "─ @ · 2 users · ↑↓ Tab/Enter insert · Esc ──", "tttttttttttttttttttttttttttttttttttttttttttt",
            " ▸ @ann  Ann Lee                            ", "hhhHHHHhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh",
            "   @bo   Bo                                 ", "wwwWWWwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww",
        ], legend: legend)
    }

    /// With no one to insert, only the key that does something is offered.
    func testNoOneMatches() {
        assertScreen(draw(query: "zz", columns: 36, rows: 4), [
            "....................................", "",
            "....................................", "",
            "....................................", "",
            "─ @zz · no one matches · Esc closes ", "tttTTttttttttttttttttttttttttttttttt",
        ], legend: legend)
        assertScreen(draw(query: "zz", columns: 24, rows: 4), [
            "........................", "",
            "........................", "",
            "........................", "",
            "─ @zz · no one matches ─", "tttTTttttttttttttttttttt",
        ], legend: legend)
    }

    /// At 20 columns long handles and names end in `…`, and every name starts in one column.
    func testLongHandlesAndNamesAreCutAndTheNamesStayInOneColumn() {
        let ranker = MentionRanker(users: [
            User(id: "u1", handle: "bartholomew", name: "Bartholomew Oyelaran-Lindqvist"),
            User(id: "u2", handle: "al", name: "Al"),
            User(id: "u3", handle: "cho", name: "조민서 Cho Min-seo"),
        ])
        let picker = MentionPicker(query: "", results: ranker.rank("", limit: MentionPicker.limit),
                                   feed: CellRect(column: 0, row: 0, width: 20, height: 6), now: .zero)
        var buffer = CellBuffer(columns: 20, rows: 6)
        MentionPickerView(picker: picker).draw(into: &buffer)
        assertScreen(buffer, [
            "", "",
            "", "",
            "─ @ · 3 users ──────", "tttttttttttttttttttt",
            " ▸ @al      Al      ", "hhhHHHhhhhhhhhhhhhhh",
            "   @barth…  Barthol…", "wwwWWWWWWWwwwwwwwwww",
            "   @cho     조민서… ", "wwwWWWWwwwwwwwwwwwww",
        ], legend: legend)
    }
}
