import XCTest
@testable import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// Which cells a search marks in a laid-out comment (issue 28, item 3), and how the renderer
/// draws them.
final class MatchCellsTests: XCTestCase {
    private func layout(_ body: String, width: Int) -> TextLayout {
        TextLayout(CommentMarkup.parse(body, handles: { _ in nil }), width: width)
    }

    private func cells(_ query: String, in body: String, width: Int = 40, revealed: Set<Int> = []) -> [Int: [Range<Int>]] {
        let text = layout(body, width: width)
        return MatchCells.find(SearchPattern(query: query, users: []), in: text.lines, range: 0..<text.lines.count, revealed: revealed)
    }

    func testEveryOccurrenceIsMarkedWhateverItsCaseOrAccents() {
        XCTAssertEqual(cells("zoe", in: "Zoë met zoe and ZOE"), [0: [0..<3, 8..<11, 16..<19]])
        XCTAssertEqual(cells("日本", in: "ようこそ日本へ"), [0: [8..<12]], "wide characters: two columns each")
        XCTAssertEqual(cells("absent", in: "nothing here"), [:])
    }

    func testAMatchRunsAcrossAWrapAtASpaceOrWithinAWord() {
        let wrapped = layout("the quick brown fox", width: 10)
        XCTAssertEqual(wrapped.lines.map(\.text), ["the quick", "brown fox"])
        XCTAssertEqual(cells("quick brown", in: "the quick brown fox", width: 10), [0: [4..<9], 1: [0..<5]])
        let broken = layout("abcdefghijklmnop", width: 8)
        XCTAssertEqual(broken.lines.map(\.text), ["abcdefgh", "ijklmnop"])
        XCTAssertEqual(cells("ghij", in: "abcdefghijklmnop", width: 8), [0: [6..<8], 1: [0..<2]])
    }

    func testOnlyTheTextIsSearchedAndAHiddenSpoilerIsNeitherMarkedNorMatchedThrough() {
        XCTAssertEqual(cells("zebra", in: "> a zebra"), [0: [4..<9]], "not the quote bar")
        XCTAssertEqual(cells("zebra", in: "a ||zebra|| b"), [:], "hidden")
        XCTAssertEqual(cells("zebra", in: "a ||zebra|| b", revealed: [1]), [0: [2..<7]])
        XCTAssertEqual(cells("ab", in: "a||x||b"), [:], "no match through a hidden spoiler")
    }

    /// The renderer draws the marked cells in the search's style, over the text's own.
    func testTheRendererDrawsMarkedCellsInTheMatchStyle() {
        let text = layout("a **zebra** crossing", width: 30)
        var buffer = CellBuffer(columns: 30, rows: 1)
        let matches = MatchCells.find(SearchPattern(query: "bra cross", users: []), in: text.lines, range: 0..<1, revealed: [])
        CommentRenderer(matches: matches).draw(text.lines[0], into: &buffer, column: 2, row: 0, limit: 30)
        assertScreen(buffer, [
            "  a zebra crossing", "    bbmmmmmmmmm",
        ], legend: ["b": Theme.body.adding(.bold), "m": Theme.searchMatch])
    }
}
