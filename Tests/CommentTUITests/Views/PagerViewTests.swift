import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// A page over the screen: the title, the text as comments draw it, a status line saying where.
final class PagerViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "b": Theme.title, "d": Theme.dim, "s": Theme.statusBar, "l": Theme.link,
    ]

    private func draw(_ pager: Pager, message: String? = nil) -> CellBuffer {
        var buffer = CellBuffer(columns: pager.size.columns, rows: pager.size.rows)
        PagerView(pager: pager, ownUserID: "u1", message: message).draw(into: &buffer)
        buffer._checkInvariants()
        return buffer
    }

    private static var post: Pager.Content { .post(body: "one ||two||\nthree [x](https://e.com)\nfour\nfive\nsix", handles: { _ in nil }) }

    func testTitleThenTheTextAsACommentShowsItThenWhereTheReaderIs() {
        let pager = Pager(Self.post, title: "Post \u{1B}[2J", details: "@ann · 2025-04-17", columns: 34, rows: 6)
        assertScreen(draw(pager), [
            " Post ␛[2J · @ann · 2025-04-17", " bbbbbbbbbdddddddddddddddddddd",
            " one ░░░", "     ddd",
            " three x (e.com)", "       ldddddddd",
            " four", "",
            " five", "",
            " lines 1–4 of 5 · Esc closes      ", "ssssssssssssssssssssssssssssssssss",
        ], legend: legend)
    }

    func testTheEndShowsTheLastLineAndAMessageFollowsTheStatus() {
        var pager = Pager(Self.post, title: "Post", columns: 34, rows: 5)
        _ = pager.handle(.bottom)
        _ = pager.handle(.toggleSpoilers)
        XCTAssertEqual(draw(pager, message: "hi").lines.map { $0.trimmingCharacters(in: .whitespaces) }, [
            "Post", "four", "five", "six", "lines 3–5 of 5 · Esc closes · hi",
        ])
        _ = pager.handle(.top)
        XCTAssertEqual(draw(pager).line(1).trimmingCharacters(in: .whitespaces), "one two", "Alt-S revealed the spoiler")
    }

    func testTheKeyPageWrapsBothColumnsInANarrowTerminal() {
        let text = PageText.keys(width: 20, lines: [KeyHelp("Ctrl-Home / Ctrl-End", "feed to the post / the newest"), KeyHelp("F1", "help")])
        XCTAssertEqual(text.lines.map(\.text), [
            "Ctrl-Home  feed to",
            "/          the post",
            "Ctrl-End   / the",
            "           newest",
            "F1         help",
        ])
        XCTAssertTrue(text.lines[0].runs[0].style.strong, "keys are bold")
        XCTAssertFalse(text.lines[0].runs.last!.style.strong)
    }

    func testAPlaceInTheTextSurvivesAWrapAtAnotherWidth() {
        let body = (1...12).map { "Paragraph \($0) has some words to wrap." }.joined(separator: "\n\n")
        let wide = PageText(markup: body, handles: { _ in nil }, width: 60, bodyBytes: 1 << 20)
        let narrow = PageText(markup: body, handles: { _ in nil }, width: 12, bodyBytes: 1 << 20)
        // Wide, a paragraph is a line: its place is the narrow line its first words start.
        for line in wide.lines.indices {
            let from = wide.lines[line].text, to = narrow.lines[narrow.line(at: wide.place(ofLine: line))].text
            XCTAssertEqual(from.isEmpty, to.isEmpty, "a blank row stays a blank row: \(line)")
            XCTAssertTrue(from.hasPrefix(to), "\(from) → \(to)")
        }
        // Narrow, a row inside a paragraph goes to the paragraph's line.
        for line in narrow.lines.indices {
            let from = narrow.lines[line].text, to = wide.lines[wide.line(at: narrow.place(ofLine: line))].text
            XCTAssertEqual(from.isEmpty, to.isEmpty, "a blank row stays a blank row: \(line)")
            XCTAssertTrue(from.isEmpty || to.contains(from), "\(from) → \(to)")
        }
    }

    func testATinyScreenStillShowsARowAndMovesByOne() {
        var pager = Pager(Self.post, title: "Post", columns: 4, rows: 2)
        XCTAssertEqual(pager.rows, 1)
        _ = pager.handle(.pageDown)
        XCTAssertEqual(pager.top, 1)
        pager.resize(columns: 1, rows: 1)
        _ = draw(pager)
        _ = pager.handle(.bottom)
        XCTAssertEqual(pager.shownLines.upperBound, pager.text.lines.count)
    }
}
