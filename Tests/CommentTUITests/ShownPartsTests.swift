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
        let source = FeedLayout.Source(item: { _ in .comment(comment) }, user: { _ in nil }, handleID: { _ in nil },
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
        let source = FeedLayout.Source(item: { _ in .comment(comment) }, user: { _ in nil }, handleID: { _ in nil },
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

    // MARK: - Where a part ends

    /// The rows `body` shows once stepped to each limit in `limits`, and the rows of the body laid out whole.
    private func stepped(_ body: String, limits: [Int]) -> (rows: [TextLayout.Line], whole: [TextLayout.Line]) {
        var asked: Int?
        let (layout, source) = feed(body, shown: { asked })
        var shown = layout.layout(of: 0, source)
        for limit in limits {
            asked = limit
            layout.invalidate(0)
            shown = layout.layout(of: 0, source)
        }
        XCTAssertEqual(shown.hiddenBytes, 0)
        let whole = TextLayout(CommentMarkup.parseRuns(body, handles: { _ in nil }), width: layout.bodyWidth)
        return (Array(shown.body.lines.dropLast()), whole.lines)
    }

    func testACodeBlockCutBetweenPartsStaysCode() {
        var code = ""
        var n = 0
        let filler = String(repeating: "c", count: 50)
        while code.utf8.count < 300_000 { code += "# x\n- y\nlet line\(n) = \"\(filler)\"\n"; n += 1 }
        let body = "intro\n\n```swift\n" + code + "```\n\nafter the code\n\n# Heading"
        let (rows, whole) = stepped(body, limits: [100_000, 200_000, 300_000, 400_000])
        XCTAssertEqual(rows.map(\.text), whole.map(\.text))
        XCTAssertTrue(rows == whole, "styled as laid out whole")
        XCTAssertEqual(rows.filter { $0.text.hasSuffix("# x") && $0.runs.last?.style.codeBlock == true }.count, n,
                       "every `# x` is code, not a heading")
        XCTAssertEqual(rows.last?.runs.first?.style.role, .headingMarker, "the closing fence closes; the prose after it is prose")
    }

    func testABlankLineBetweenPartsStaysABlankRow() {
        var body = ""
        var n = 0
        while body.utf8.count < 300_000 { body += "paragraph \(n) of a few words\n\n"; n += 1 }
        body += "THE END"
        let (rows, whole) = stepped(body, limits: [100_000, 200_000, 300_000, 400_000])
        XCTAssertEqual(rows.map(\.text), whole.map(\.text))
        XCTAssertEqual(rows.filter(\.runs.isEmpty).count, n, "one blank row after each paragraph")
        XCTAssertTrue(rows == whole, "styled as laid out whole")
    }

    func testABlankLineWithCRLFBetweenPartsStaysABlankRow() {
        var body = ""
        var n = 0
        while body.utf8.count < 300_000 { body += "paragraph \(n) of a few words\r\n\r\n"; n += 1 }
        body += "THE END"
        let (rows, whole) = stepped(body, limits: [100_000, 200_000, 300_000, 400_000])
        XCTAssertEqual(rows.map(\.text), whole.map(\.text))
    }

    func testASpoilerCutBetweenPartsShowsNoHiddenText() {
        // One paragraph, spoilers of 40 KB each: every part's cut falls in one.
        var body = ""
        var n = 0
        while body.utf8.count < 300_000 {
            body += "shown\(n) "
            body += "||" + String(repeating: "hidden ", count: 6_000) + "hidden||"
            body += " shown\(n)again "
            n += 1
        }
        var asked: Int?
        let (layout, source) = feed(body, shown: { asked })
        for limit in [nil, 100_000, 200_000, 300_000, 400_000] {
            asked = limit
            layout.invalidate(0)
            let shown = layout.layout(of: 0, source)
            let unhidden = shown.body.lines.flatMap(\.runs).filter { $0.style.spoiler == nil }
                .map { run in run.clusters.map(\.text).joined() }
                .filter { $0.contains("hidden") || $0.contains("||") }
            XCTAssertEqual(unhidden.count, 0, "shown, at \(limit ?? 0): \(unhidden.first?.prefix(80) ?? "")")
        }
    }

    func testALinkInALaterPartLeadsToItsAddress() {
        let body = Self.body(lines: 2_500) + "\n\nsee [the notes](https://example.com/notes) and <https://example.org/x>"
        var asked: Int?
        let (layout, source) = feed(body, shown: { asked })
        for limit in [100_000, 300_000] {
            asked = limit
            layout.invalidate(0)
            _ = layout.layout(of: 0, source)
        }
        let shown = layout.layout(of: 0, source)
        XCTAssertEqual(shown.hiddenBytes, 0)
        XCTAssertEqual(shown.body.links.map(\.url), ["https://example.com/notes", "https://example.org/x"])
    }

    func testACutWithNoLineBreakNearFallsBetweenWords() {
        var body = ""
        var n = 0
        while body.utf8.count < 100_000 { body += "word\(n) "; n += 1 }
        let cut = ShownBody(body, limit: 50_000)
        XCTAssertTrue(body.hasPrefix(cut.text + " "), "ends with a whole word, before a space")
        XCTAssertEqual(cut.hiddenBytes, body.utf8.count - cut.text.utf8.count)
    }

    // MARK: - When parts are kept

    func testLayingEverythingOutAgainKeepsTheParts() {
        let body = Self.body(lines: 4_000)
        var asked: Int? = 200_000
        let (layout, source) = feed(body, shown: { asked })
        let shown = layout.layout(of: 0, source)
        let before = layout.bytesLaidOut
        // Older comments loaded, a gap filled, another comment edited: positions and layouts go, parts stay.
        layout.invalidateAll()
        XCTAssertEqual(layout.layout(of: 0, source).body, shown.body)
        XCTAssertEqual(layout.bytesLaidOut, before, "nothing laid out again")
        // Who a handle names changed: the parts go too.
        layout.invalidateAll(keepingShownParts: false)
        asked = 200_000
        _ = layout.layout(of: 0, source)
        XCTAssertGreaterThan(layout.bytesLaidOut, before + 100_000)
    }

    func testABodyChangedWithItsLengthAndEditTimeKeptIsLaidOutAgain() {
        var comment = Comment(id: "huge", author: "u1", created: ThreadFixture.start, body: Self.body(lines: 3_000))
        let layout = FeedLayout(width: 80)
        let source = FeedLayout.Source(item: { _ in .comment(comment) }, user: { _ in nil }, handleID: { _ in nil },
                                       isExpanded: { _ in true }, shownBytes: { _ in 150_000 })
        _ = layout.layout(of: 0, source)
        // A redaction, or a local echo replaced: same length, no edit time.
        comment.body = "WORD0" + comment.body.dropFirst(5)
        layout.invalidate(0)
        XCTAssertEqual(layout.layout(of: 0, source).body.lines.first?.text.hasPrefix("WORD0 word1"), true)
    }

    func testAFreshLayoutShowsWhatTheStepsShowed() {
        // One paragraph past two steps: the parts are cut mid-paragraph.
        var body = ""
        var n = 0
        while body.utf8.count < 1_300_000 { body += "word\(n) "; n += 1 }
        var asked: Int?
        let (stepped, source) = feed(body, shown: { asked })
        var limit = FeedLayout.shownBodyBytes
        while limit < body.utf8.count {
            limit = FeedLayout.limit(after: limit)
            asked = limit
            stepped.invalidate(0)
            _ = stepped.layout(of: 0, source)
        }
        // A resize, new users, a search put back: laid out afresh at the limit reached.
        let fresh = FeedLayout(width: 80)
        XCTAssertEqual(fresh.layout(of: 0, source).body.lines.map(\.text), stepped.layout(of: 0, source).body.lines.map(\.text))
    }
}
