import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A huge comment shown a step at a time (issue 36: each "show more" laid the whole shown body
/// out again, up to 9 s a step): each step lays out only the bytes it adds (`ShownParts`), and
/// what shows is the text laid out whole.
final class ShownPartsTests: XCTestCase {
    /// `lines` lines of ten words, with a spoiler in each when `spoilers`; "THE END" last.
    private static func body(lines: Int, spoilers: Bool = false) -> String {
        var text = ""
        for n in 0..<lines {
            for k in 0..<10 { text += "word\(n * 10 + k) " }
            text += spoilers ? "||secret\(n)||\n" : "\n"
        }
        return text + "THE END"
    }

    /// A feed layout of one comment, shown to whatever `shown` says.
    private func feed(_ body: String, shown: @escaping () -> Int?) -> (FeedLayout, FeedLayout.Source) {
        let comment = Comment(id: "huge", author: "u1", created: ThreadFixture.start, body: body)
        let source = FeedLayout.Source(comment: { _ in .success(comment) }, user: { _ in nil }, handleID: { _ in nil },
                                       isExpanded: { _ in true }, shownBytes: { _ in shown() })
        return (FeedLayout(width: 80), source)
    }

    func testEachStepLaysOutOnlyTheBytesItAdds() {
        let body = Self.body(lines: 8_000)   // about 600 KB
        var asked: Int?
        let (layout, source) = feed(body, shown: { asked })
        var shown = layout.layout(of: 0, source)
        XCTAssertLessThanOrEqual(layout.bytesLaidOut, FeedLayout.shownBodyBytes, "collapsed: the first part")
        XCTAssertGreaterThan(shown.hiddenBytes, 500_000)
        let first = layout.bytesLaidOut
        for limit in [150_000, 250_000, 350_000, 450_000, 550_000, 1_000_000] {
            asked = limit
            layout.invalidate(0)
            shown = layout.layout(of: 0, source)
        }
        XCTAssertEqual(shown.hiddenBytes, 0)
        // Every byte once after the first part; laid out again from the start at each step,
        // the six steps would cost 2.3 MB.
        XCTAssertLessThanOrEqual(layout.bytesLaidOut - first, body.utf8.count)
        // The same limit again (a frame, a cache let go) lays nothing out.
        let before = layout.bytesLaidOut
        layout.invalidate(0)
        XCTAssertEqual(layout.layout(of: 0, source).body, shown.body)
        XCTAssertEqual(layout.bytesLaidOut, before)
        // What shows is the text laid out whole: the parts were cut at line breaks.
        let whole = TextLayout(CommentMarkup.parseRuns(body, handles: { _ in nil }), width: layout.bodyWidth)
        XCTAssertEqual(Array(shown.body.lines.dropLast().map(\.text)), whole.lines.map(\.text))
        XCTAssertEqual(shown.body.lines.last?.text, "⌃ show less")
    }

    func testSpoilersOfLaterPartsAreNumberedApart() {
        let body = Self.body(lines: 3_000, spoilers: true)
        var asked: Int?
        let (layout, source) = feed(body, shown: { asked })
        for limit in [100_000, 180_000, 260_000, 400_000] {
            asked = limit
            layout.invalidate(0)
            _ = layout.layout(of: 0, source)
        }
        let shown = layout.layout(of: 0, source)
        XCTAssertEqual(shown.hiddenBytes, 0)
        XCTAssertEqual(shown.spoilers.count, 3_000, "one number a spoiler, none shared by two parts")
    }

    func testAParagraphCutBetweenPartsKeepsEveryCharacterOnce() {
        var body = ""
        var n = 0
        while body.utf8.count < 300_000 { body += "word\(n) "; n += 1 }
        var asked: Int?
        let (layout, source) = feed(body, shown: { asked })
        for limit in [100_000, 200_000, 400_000] {
            asked = limit
            layout.invalidate(0)
            _ = layout.layout(of: 0, source)
        }
        let shown = layout.layout(of: 0, source)
        XCTAssertEqual(shown.hiddenBytes, 0)
        let rows = shown.body.lines.dropLast().map(\.text)
        XCTAssertTrue(rows.allSatisfy { DisplayWidth.width(of: $0) <= layout.bodyWidth })
        XCTAssertEqual(rows.joined().filter { $0 != " " }, body.filter { $0 != " " })
    }

    func testCollapsedAgainTheStepsAreLetGoAndAnEditStartsAfresh() {
        var comment = Comment(id: "huge", author: "u1", created: ThreadFixture.start, body: Self.body(lines: 3_000))
        var asked: Int? = 150_000
        let layout = FeedLayout(width: 80)
        let source = FeedLayout.Source(comment: { _ in .success(comment) }, user: { _ in nil }, handleID: { _ in nil },
                                       isExpanded: { _ in true }, shownBytes: { _ in asked })
        _ = layout.layout(of: 0, source)
        // Edited: the parts of the old body are not the new body's.
        comment.body = "edited " + comment.body
        comment.edited = ThreadFixture.start.addingTimeInterval(60)
        asked = 200_000
        layout.invalidate(0)
        XCTAssertEqual(layout.layout(of: 0, source).body.lines.first?.text.hasPrefix("edited word0"), true)
        // Collapsed: the first part only, laid out afresh.
        asked = nil
        layout.invalidate(0)
        XCTAssertGreaterThan(layout.layout(of: 0, source).hiddenBytes, 100_000)
    }
}
