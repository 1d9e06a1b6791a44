import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// Comment bodies laid out at a width: the expected lines are written out in each test.
final class TextLayoutTests: XCTestCase {
    private func layout(_ body: String, width: Int) -> TextLayout {
        TextLayout(CommentMarkup.parse(body, handles: { $0 == "ana" ? "u-ana" : nil }), width: width)
    }

    private func lines(_ body: String, width: Int) -> [String] {
        layout(body, width: width).lines.map(\.text)
    }

    func testWordWrapAtSpacesDropsTheSpaceAtTheBreak() {
        XCTAssertEqual(lines("the quick brown fox jumps over the lazy dog", width: 15), [
            "the quick brown",
            "fox jumps over",
            "the lazy dog",
        ])
    }

    func testOverlongWordsBreakWhereTheRowEnds() {
        XCTAssertEqual(lines("see abcdefghijklmnopqrstuvwxyz now", width: 10), [
            "see",
            "abcdefghij",
            "klmnopqrst",
            "uvwxyz now",
        ])
    }

    /// Where the last row kept ends with whole words, a space parts them from `… N more lines`
    /// (`someone. … 4 more lines`, not `someone.… 4 more lines`); a word cut short takes the `…`.
    func testTheMoreLinesMarkerStandsApartFromWholeWords() {
        let body = "Type in the composer to mention someone.\n\nWhat to look at:\n- one\n- two"
        func shown(_ width: Int) -> String { layout(body, width: width).truncated(toRows: 1).lines[0].text }
        XCTAssertEqual(shown(60), "Type in the composer to mention someone. … 5 more lines")
        XCTAssertEqual(shown(39), "Type in the composer to … 6 more lines", "cut where a space was: the words kept are whole")
        XCTAssertEqual(shown(41), "Type in the composer to men… 5 more lines")
    }

    /// The demo's post in the expanded header at 100 columns.
    func testTheDemoPostsMarkerHasItsSpace() {
        let header = ThreadHeaderLayout(thread: DemoThread.make(), width: 100, handles: { _ in nil })
        XCTAssertEqual(header.bodyLines.last?.text, "Ctrl-Home. Type @ in the composer to mention someone. … 10 more lines")
    }

    func testCJKBreaksBetweenCharacters() {
        XCTAssertEqual(lines("日本語のテキストを折り返す", width: 10), [
            "日本語のテ",
            "キストを折",
            "り返す",
        ])
        XCTAssertEqual(lines("ok 日本語です", width: 7), ["ok 日本", "語です"])
    }

    /// `👨‍👩‍👧` shows as three cells of its components (see `DisplayWidth`): a row never ends
    /// between them, nor between a flag's two letters.
    func testTheCellsOfOneCharacterStayOnOneRow() {
        XCTAssertEqual(lines("abcd 👨‍👩‍👧 ok", width: 10), ["abcd", "👨👩👧 ok"])
        // Before a wide character a row may break, as between CJK characters; inside one, not.
        XCTAssertEqual(lines("xx abcd👨‍👩‍👧", width: 12), ["xx abcd", "👨👩👧"])
        XCTAssertEqual(lines("xx abcd🇫🇷", width: 8), ["xx", "abcdFR"])
        XCTAssertEqual(lines("abcdefghi 🇫🇷", width: 11), ["abcdefghi", "FR"])
        XCTAssertEqual(lines("```\nabcdef👨‍👩‍👧\n```", width: 12), ["  abcdef", "  👨👩👧"])
        // A character wider than a row still breaks where the row ends.
        XCTAssertEqual(lines("👨‍👩‍👧‍👦", width: 4), ["👨👩", "👧👦"])
    }

    func testTabsExpandToStopsOfFour() {
        XCTAssertEqual(lines("a\tb\tc", width: 20), ["a   b   c"])
    }

    func testHardBreaksAndParagraphs() {
        XCTAssertEqual(lines("one\\\ntwo\n\nthree", width: 20), ["one", "two", "", "three"])
    }

    func testQuotesGetBarsOnEveryRow() {
        XCTAssertEqual(lines("> quoted words that wrap here\n\nafter", width: 14), [
            "│ quoted words",
            "│ that wrap",
            "│ here",
            "",
            "after",
        ])
    }

    func testCodeBlocksAreIndentedAndKeepSpaces() {
        XCTAssertEqual(lines("```\nlet  x = 1\n    y\n```", width: 12), [
            "  let  x = 1",
            "      y",
        ])
        XCTAssertEqual(lines("```\nabcdefghijklmn\n```", width: 8), ["  abcdef", "  ghijkl", "  mn"])
    }

    func testListItemsHangUnderTheirMarker() {
        XCTAssertEqual(lines("- first item wraps\n- second\n\n1. one\n2. two", width: 12), [
            "• first item",
            "  wraps",
            "• second",
            "",
            "1. one",
            "2. two",
        ])
    }

    func testLinksShowTheirHostWhenTheTextDiffers() {
        XCTAssertEqual(lines("[docs](https://www.example.com/a/b) and https://swift.org", width: 60),
                       ["docs (example.com) and https://swift.org"])
        let links = layout("[docs](https://www.example.com/a/b) and https://swift.org", width: 60).links
        XCTAssertEqual(links.map(\.url), ["https://www.example.com/a/b", "https://swift.org"])
    }

    func testALinkCutByWrappingSpansItsLines() {
        let wrapped = layout("read [the long guide here](https://x.org) ok", width: 12)
        XCTAssertEqual(wrapped.lines.map(\.text), ["read the", "long guide", "here (x.org)", "ok"])
        XCTAssertEqual(wrapped.links.map(\.lines), [0...2])
    }

    func testStylesFollowTheAttributes() {
        let line = layout("**b** *i* `c` ~~s~~ @ana ||x||", width: 40).lines[0]
        let styles = line.runs.filter { $0.clusters.first?.text != " " }.map(\.style)
        XCTAssertTrue(styles[0].strong)
        XCTAssertTrue(styles[1].emphasis)
        XCTAssertTrue(styles[2].code)
        XCTAssertTrue(styles[3].strikethrough)
        XCTAssertEqual(styles[4].mention, "u-ana")
        XCTAssertEqual(styles[5].spoiler, 1)
        XCTAssertEqual(line.text, "b i c s @ana x")
    }

    func testTruncationLeavesRoomForTheMarkerOnTheLastRow() {
        let body = (1...20).map { "line \($0) has some words" }.joined(separator: "\\\n")
        let full = layout(body, width: 24)
        XCTAssertEqual(full.lines.count, 20)
        XCTAssertFalse(full.isTruncated)
        let cut = full.truncated(toRows: 12)
        XCTAssertTrue(cut.isTruncated)
        XCTAssertEqual(cut.fullLineCount, 20)
        XCTAssertEqual(cut.lines.count, 12)
        XCTAssertEqual(cut.lines[10].text, "line 11 has some words")
        XCTAssertEqual(cut.lines[11].text, "line 12 ha… 8 more lines")
        XCTAssertLessThanOrEqual(cut.lines[11].width, 24)
        XCTAssertEqual(cut.style(line: 11, column: 20)?.role, .expandMarker)
        XCTAssertEqual(full.truncated(toRows: 25), full, "a layout that fits is left alone")
    }

    /// The demo thread's own example: each heading a line of its own behind its `#`s.
    func testHeadingsAreLinesOfTheirOwnBehindTheirMarker() {
        XCTAssertEqual(lines("Markdown headings should render as bold lines:\n\n# Heading one\n## Heading two\n\nand a > quote", width: 48), [
            "Markdown headings should render as bold lines:",
            "",
            "# Heading one",
            "",
            "## Heading two",
            "",
            "and a > quote",
        ])
        XCTAssertEqual(lines("## a heading that wraps", width: 14), ["## a heading", "   that wraps"])
    }

    /// A blank row inside a quote keeps the quote's bar; between two quotes it has none.
    func testABlankRowInsideAQuoteKeepsItsBar() {
        XCTAssertEqual(lines("> a\n>\n> b\n\n> c\n> > d\n>\n> e", width: 20), ["│ a", "│", "│ b", "", "│ c", "│", "│ │ d", "│", "│ e"])
    }

    func testHostileTextIsVisible() {
        XCTAssertEqual(lines("bell\u{7} esc\u{1B}[31m", width: 30), ["bell␇ esc␛[31m"])
    }

    /// The feed lays out `parseRuns`, other callers the AttributedString: both must agree, also
    /// where a mark joins a character across a style change (it takes the later style, as
    /// slicing an AttributedString rounds a run down to character boundaries).
    func testPlainRunsLayOutLikeTheAttributedString() {
        let bodies = ["*e*\u{301} tail", "[xe](http://a.com)\u{301}y", "中文*字*\u{301}漢 @ana\u{301}", "a\r\nb",
                      "\tx\t*y*\t\u{301}z", "> q *e*\u{301}\n> - li\u{301}\n\n1. [a](http://h.com)\n2. b", "||sp||\u{301} x"]
        for body in bodies {
            let handles: (String) -> String? = { $0 == "ana" ? "u-ana" : nil }
            XCTAssertEqual(TextLayout(CommentMarkup.parseRuns(body, handles: handles), width: 12),
                           TextLayout(CommentMarkup.parse(body, handles: handles), width: 12), body)
        }
        let straddling = layout("[xe](http://a.com)\u{301}y", width: 30)
        XCTAssertEqual(straddling.lines.map(\.text), ["x (a.com)e\u{301}y"])
        XCTAssertEqual(straddling.lines[0].runs.first?.style.link, "http://a.com")
        XCTAssertEqual(straddling.lines[0].runs.first?.clusters.map(\.text), ["x"])
    }
}
