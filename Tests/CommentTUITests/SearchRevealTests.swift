import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// A search shows what it found (issue 28, item 3): the query stands out where it is, and a
/// match in the collapsed part of a long comment expands it and scrolls the line into view.
final class SearchRevealTests: XCTestCase {
    /// A thread whose comment 1 (position 1) has `lines` lines, the query on line `at` (from 1).
    private func thread(lines: Int, needleAt at: Int) -> ThreadFixture {
        let body = (1...lines).map { $0 == at ? "here is the Needle, line \($0)" : "line \($0) of the long one" }.joined(separator: "\n")
        return ThreadFixture.numbered(1).adding([body, "after it", "the newest"], by: ThreadFixture.bo.id)
    }

    /// The row showing `text`, and the columns of the text on it.
    private func place(of text: String, in pilot: Pilot, row marker: String? = nil) -> (row: Int, columns: Range<Int>)? {
        for (row, line) in pilot.lines.enumerated() where marker.map(line.contains) ?? true {
            guard let range = line.range(of: text) else { continue }
            let start = line.distance(from: line.startIndex, to: range.lowerBound)
            return (row, start..<(start + text.count))
        }
        return nil
    }

    private func assertMarked(_ text: String, in pilot: Pilot, row marker: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        guard let (row, columns) = place(of: text, in: pilot, row: marker) else {
            return XCTFail("\(text) is not on screen:\n" + pilot.lines.joined(separator: "\n"), file: file, line: line)
        }
        for column in columns {
            XCTAssertEqual(pilot.screen.screen[column, row].style, Theme.searchMatch, "column \(column)", file: file, line: line)
        }
        XCTAssertNotEqual(pilot.screen.screen[columns.upperBound, row].style, Theme.searchMatch, file: file, line: line)
    }

    func testAMatchInTheCollapsedPartExpandsTheCommentAndComesIntoView() {
        let pilot = thread(lines: 40, needleAt: 31).pilot(columns: 60, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("needle")
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex, 1)
        XCTAssertTrue(pilot.isExpanded(commentID: "c1"), "expanded")
        assertMarked("Needle", in: pilot)
        XCTAssertTrue(pilot.lines.contains("▌  here is the Needle, line 31"), pilot.lines.joined(separator: "\n"))
    }

    func testAMatchInTheShownPartLeavesTheCommentCollapsed() {
        let pilot = thread(lines: 40, needleAt: 3).pilot(columns: 60, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("needle")
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex, 1)
        XCTAssertFalse(pilot.isExpanded(commentID: "c1"))
        assertMarked("Needle", in: pilot)
    }

    /// A match on the author's name is nowhere in the body: the long comment stays collapsed.
    func testAMatchOnTheAuthorLeavesTheCommentCollapsed() {
        let body = (1...40).map { "line \($0) of the long one" }.joined(separator: "\n")
        let pilot = ThreadFixture.numbered(1).adding([body], by: ThreadFixture.bo.id)
            .adding(["after it", "the newest"], by: ThreadFixture.ann.id).pilot(columns: 60, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("日本")
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex, 1)
        XCTAssertFalse(pilot.isExpanded(commentID: "c1"), "expanded for a match on the name")
    }

    /// A match in a link's address (not drawn) in the collapsed part expands nothing either:
    /// expanding would show no more of it.
    func testAMatchInAnAddressLeavesTheCommentCollapsed() {
        let body = (1...40).map { $0 == 31 ? "see [the docs](https://example.com/needle)" : "line \($0) of the long one" }
            .joined(separator: "\n")
        let pilot = ThreadFixture.numbered(1).adding([body, "after it", "the newest"], by: ThreadFixture.bo.id)
            .pilot(columns: 60, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("needle")
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex, 1)
        XCTAssertFalse(pilot.isExpanded(commentID: "c1"), "expanded for a match it does not show")
    }

    /// Past the part of a huge comment laid out (`FeedLayout.shownBodyBytes`): laid out as far
    /// as the match, which comes into view.
    func testAMatchPastTheLaidOutPartOfAHugeCommentIsLaidOutAndShown() {
        let lines = FeedLayout.shownBodyBytes / 24 + 200
        let pilot = thread(lines: lines, needleAt: lines - 100).pilot(columns: 60, rows: 20)
        pilot.press(.ctrl("s"))
        pilot.type("needle")
        pilot.settle()
        XCTAssertEqual(pilot.selectedCommentIndex, 1)
        assertMarked("Needle", in: pilot)
        XCTAssertGreaterThan(pilot.shownBodyBytes(commentID: "c1") ?? 0, FeedLayout.shownBodyBytes)
    }

    /// The query stands out in every comment on screen while the search is open, and no
    /// longer once it is left.
    func testTheQueryStandsOutUntilTheSearchIsLeft() {
        let pilot = ThreadFixture.numbered(5).pilot(columns: 40, rows: 16)
        pilot.press(.ctrl("s"))
        pilot.type("Number")
        pilot.settle()
        for n in 2...5 { assertMarked("number", in: pilot, row: "comment number \(n)") }
        pilot.press(.escape)
        pilot.settle()
        guard let (row, columns) = place(of: "number", in: pilot) else { return XCTFail("gone") }
        XCTAssertNotEqual(pilot.screen.screen[columns.lowerBound, row].style, Theme.searchMatch)
    }

    /// Without colour (`NO_COLOR`, a monochrome terminal: no colours at all) the match still
    /// stands out in reverse video, and nothing on screen is drawn in a colour.
    func testWithoutColourTheMatchIsInReverseVideoAndNothingIsColoured() {
        let pilot = ThreadFixture.numbered(5).pilot(columns: 40, rows: 16)
        pilot.app.colorCount = 0
        pilot.press(.ctrl("s"))
        pilot.type("Number")
        pilot.settle()
        for n in 2...5 { assertMarked("number", in: pilot, row: "comment number \(n)") }
        let screen = pilot.screen.screen
        let coloured = (0..<screen.rows).flatMap { row in (0..<screen.columns).map { (column: $0, row: row) } }
            .filter { screen[$0.column, $0.row].style.foreground != .default || screen[$0.column, $0.row].style.background != .default }
        XCTAssertEqual(coloured.count, 0, "coloured cells, the first at \(coloured.first.map { "\($0)" } ?? "")")
    }

    // MARK: The thread changes under a search

    private func queued(_ fixture: ThreadFixture, hasOlder: Bool = false) throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: fixture.thread, hasOlder: hasOlder)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 100, rows: 16)
        app.wallTime = ThreadFixture.now
        return (Pilot(app: app, screen: HeadlessScreen(columns: 100, rows: 16)), source)
    }

    private func comment(_ id: String, _ body: String) -> Comment {
        Comment(id: id, author: ThreadFixture.bo.id, created: ThreadFixture.start, body: body)
    }

    /// A comment that arrives after the scan read the thread is counted as it comes.
    func testACommentArrivingDuringASearchIsCountedAndFound() throws {
        let (pilot, source) = try queued(.numbered(10))
        pilot.press(.ctrl("s"))
        pilot.type("number 5")
        pilot.settle()
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "number 5": match 1 of 1 (Enter: older)"#), pilot.lines.last!)
        source.deliver(.commentsAppended([comment("new", "number 5 again")]))
        pilot.app.sourceIsReady()
        pilot.press(.enter)
        pilot.settle()
        XCTAssertEqual(pilot.searchMatch, 10)
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "number 5": match 2 of 2 · wrapped to the newest"#), pilot.lines.last!)
    }

    /// Older comments loaded above: the match keeps its comment, and the count takes them in.
    func testOlderCommentsLoadedAboveMoveTheMatchAndAreCounted() throws {
        let (pilot, source) = try queued(.numbered(30), hasOlder: true)
        pilot.press(.ctrl("s"))
        pilot.type("number 20")
        pilot.settle()
        XCTAssertEqual(pilot.searchMatch, 19)
        source.deliver(.olderComments([comment("o1", "an older number 20"), comment("o2", "older")], hasMore: false))
        pilot.app.sourceIsReady()
        pilot.settle()
        XCTAssertEqual(pilot.searchMatch, 21, "the same comment, two positions on")
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "number 20": match 2 of 2 (Enter: older)"#), pilot.lines.last!)
        pilot.press(.enter)
        pilot.settle()
        XCTAssertEqual(pilot.searchMatch, 0)
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "number 20": match 1 of 2 (Enter: older)"#), pilot.lines.last!)
    }

    /// An edit reaches the search: a comment edited to match is counted and gone to, one
    /// edited not to match any more is no longer counted.
    func testAnEditedCommentIsSearchedByItsNewText() {
        let pilot = ThreadFixture.numbered(10).pilot(columns: 100, rows: 16)
        var status: String { pilot.lines.last! }
        pilot.press(.ctrl("s"))
        pilot.type("number 5")
        pilot.settle()
        XCTAssertTrue(status.hasSuffix(#"search "number 5": match 1 of 1 (Enter: older)"#), status)
        pilot.app.receive([.commentEdited(comment("c8", "number 5 after all"))])
        pilot.settle()
        XCTAssertTrue(status.hasSuffix(#"search "number 5": match 1 of 2 (Enter: older)"#), status)
        pilot.press(.enter)
        pilot.settle()
        XCTAssertEqual(pilot.searchMatch, 7)
        XCTAssertTrue(status.hasSuffix(#"search "number 5": match 2 of 2 · wrapped to the newest"#), status)
        pilot.app.receive([.commentEdited(comment("c5", "not any more"))])
        pilot.settle()
        XCTAssertEqual(pilot.searchMatchCount, 1)
        XCTAssertTrue(status.contains(#"search "number 5": match 1 of 1"#), status)
    }
}
