import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A huge comment from another writer (issue 22, item 7): only its first
/// `FeedLayout.shownBodyBytes` are parsed and laid out, the rest waits behind "show more"
/// (a step of at most `FeedLayout.showMoreBytes`, "show all" when that is the rest).
final class HugeCommentTests: XCTestCase {
    /// Words in lines of about 70 bytes, `bytes` long, ending in "THE END".
    private static func body(bytes: Int) -> String {
        var text = ""
        text.reserveCapacity(bytes + 80)
        var n = 0
        while text.utf8.count < bytes {
            for _ in 0..<10 { text += "word\(n) "; n += 1 }
            text += "\n"
        }
        return text + "THE END"
    }

    /// A thread file of 50 generated comments and then one of `bytes`, opened through its index.
    private func open(hugeBytes bytes: Int, columns: Int = 80, rows: Int = 30) throws -> (Pilot, Int, String) {
        var file: [UInt8] = []
        try ThreadGenerator(comments: 50, users: 5, seed: 2).write { file += $0 }
        let body = Self.body(bytes: bytes)
        ThreadRecordEncoder().append(.comment(Comment(id: "huge", author: "u2", created: ThreadFixture.start, body: body)), to: &file)
        let path = try temporaryDirectory(self).appendingPathComponent("huge.jsonl").path
        try Data(file).write(to: URL(fileURLWithPath: path))
        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(index.commentCount, 51)
        var fixture = ThreadFixture(title: "Huge", users: index.users)
        fixture.store = index
        let pilot = fixture.pilot(columns: columns, rows: rows)
        pilot.settle()
        return (pilot, 50, body)
    }

    /// Clicks the first cell of `text` on screen.
    private func click(_ pilot: Pilot, on text: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let row = pilot.lines.firstIndex(where: { $0.contains(text) }), let range = pilot.lines[row].range(of: text) else {
            return XCTFail("no \(text) on screen:\n" + pilot.lines.joined(separator: "\n"), file: file, line: line)
        }
        pilot.click(column: pilot.lines[row].distance(from: pilot.lines[row].startIndex, to: range.lowerBound), row: row)
        pilot.settle()
    }

    func testASixMegabyteCommentLaysOutItsFirstPartOnly() throws {
        let (pilot, huge, body) = try open(hugeBytes: 6_000_000)
        let bound = FeedLayout.shownBodyBytes / 70 * 2
        var layout = pilot.app.feed.layout(huge)
        XCTAssertLessThan(layout.body.fullLineCount, bound, "lines laid out: the first 64 KB, not 6 MB")
        XCTAssertGreaterThan(layout.hiddenBytes, 5_900_000)
        XCTAssertTrue(pilot.lines.contains { $0.contains("+ more lines") }, pilot.lines.joined(separator: "\n"))

        // Expanded: the first part whole, then how much is left out and a step more.
        click(pilot, on: "+ more lines")
        layout = pilot.app.feed.layout(huge)
        XCTAssertLessThan(layout.body.lines.count, bound)
        let said = "… \(ShownBody.describe(bytes: layout.hiddenBytes)) more · show \(ShownBody.describe(bytes: FeedLayout.showMoreBytes)) more"
        XCTAssertEqual(layout.body.lines[layout.body.lines.count - 2].text, said)
        XCTAssertEqual(layout.body.lines.last?.text, "⌃ show less")
        // It scrolls as any comment: up through it and back, every frame from the same bounded layout.
        for _ in 0..<5 { pilot.press(.pageUp); pilot.settle() }
        for _ in 0..<10 { pilot.press(.pageDown); pilot.settle() }
        XCTAssertTrue(pilot.lines.contains { $0.contains(said) }, pilot.lines.joined(separator: "\n"))
        XCTAssertLessThan(pilot.app.feed.layout(huge).body.fullLineCount, bound)
        XCTAssertFalse(body.prefix(FeedLayout.shownBodyBytes).contains("THE END"))
    }

    func testShowAllLaysOutTheWholeBodyAndShowLessLetsItGo() throws {
        let (pilot, huge, _) = try open(hugeBytes: 200_000)
        click(pilot, on: "+ more lines")
        click(pilot, on: "show all")
        let whole = pilot.app.feed.layout(huge)
        XCTAssertEqual(whole.hiddenBytes, 0)
        XCTAssertGreaterThan(whole.body.lines.count, 200_000 / 80)
        XCTAssertEqual(whole.body.lines[whole.body.lines.count - 2].text, "THE END")
        XCTAssertEqual(whole.body.lines.last?.text, "⌃ show less")
        XCTAssertEqual(pilot.app.feed.shownBodyBytes, ["huge": FeedLayout.shownBodyBytes + FeedLayout.showMoreBytes])

        // Alt-E steps too: collapsed, expanded, all, collapsed (the whole layout let go).
        _ = pilot.app.feed.toggleExpanded(huge)
        XCTAssertEqual(pilot.app.feed.shownBodyBytes, [:])
        pilot.app.feed.selected = huge
        for expected in [(true, false), (true, true), (false, false)] {
            pilot.press(.alt("e"))
            XCTAssertEqual(pilot.isExpanded(commentID: "huge"), expected.0)
            XCTAssertEqual(pilot.shownBodyBytes(commentID: "huge") != nil, expected.1)
        }
    }

    func testLayingTheFeedOutAgainKeepsWhatShowMoreLaidOut() throws {
        let (pilot, huge, _) = try open(hugeBytes: 300_000)
        click(pilot, on: "+ more lines")
        click(pilot, on: "show all")
        let shown = pilot.app.feed.layout(huge)
        XCTAssertEqual(shown.hiddenBytes, 0)
        let before = pilot.app.feed.bytesLaidOut
        // Older comments loaded, a gap filled, a comment edited or sent, the read marker put
        // back: every layout goes, not the parts show more laid out (each step's megabyte).
        pilot.app.feed.invalidateLayouts()
        XCTAssertEqual(pilot.app.feed.layout(huge).body, shown.body)
        pilot.settle()
        XCTAssertLessThan(pilot.app.feed.bytesLaidOut - before, 100_000, "a screenful of small comments, not the huge one again")
        // Who a `@handle` names changed: laid out again.
        pilot.app.feed.invalidateLayouts(keepingShownParts: false)
        XCTAssertEqual(pilot.app.feed.layout(huge).body, shown.body)
        XCTAssertGreaterThan(pilot.app.feed.bytesLaidOut - before, 300_000)
    }

    func testAHugeBodyOfFewRowsStillSaysThereIsMore() {
        // 100 KB of spaces and one ruby word: its first 64 KB lay out in a row or two.
        let body = "{漢字|かんじ}" + String(repeating: " ", count: 100_000) + "end"
        var fixture = ThreadFixture.numbered(2)
        fixture.add(Comment(id: "blank", author: "u1", created: ThreadFixture.start, body: body))
        let pilot = fixture.pilot(columns: 40, rows: 20)
        pilot.settle()
        let layout = pilot.app.feed.layout(2)
        XCTAssertGreaterThan(layout.hiddenBytes, 30_000)
        XCTAssertTrue(layout.body.lines.last!.text.hasSuffix("+ more lines"), layout.body.lines.map(\.text).joined(separator: "\n"))
    }

    func testEachShowMoreStepIsBounded() {
        var limit = FeedLayout.shownBodyBytes
        var steps: [Int] = []
        while limit < 8 << 20 {
            let next = FeedLayout.limit(after: limit)
            steps.append(next - limit)
            limit = next
        }
        XCTAssertTrue(steps.allSatisfy { $0 <= FeedLayout.showMoreBytes }, "\(steps)")
        XCTAssertEqual(steps.count, 8, "an 8 MiB body, the most a reader takes, in eight steps")
    }

    func testTheCutFallsBetweenLinesOrCharacters() {
        let x = String(repeating: "x", count: 60), y = String(repeating: "y", count: 10)
        let lines = ShownBody(x + "\n" + y, limit: 66)
        XCTAssertEqual(lines.text, x, "at the line break in the last eighth")
        XCTAssertEqual(lines.hiddenBytes, 11)
        let emoji = String(repeating: "👨‍👩‍👧", count: 10)   // 18 bytes each
        let cut = ShownBody(emoji, limit: 40)
        XCTAssertEqual(cut.text, String(repeating: "👨‍👩‍👧", count: 2), "never half a family")
        XCTAssertEqual(cut.hiddenBytes, 18 * 8)
        XCTAssertEqual(ShownBody("short", limit: 40).hiddenBytes, 0)
    }
}
