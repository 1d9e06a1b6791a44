import XCTest
@testable import CommentTUI

/// A home row's preview: the newest comment parsed and laid out as the feed does, on one line.
final class ThreadPreviewTests: XCTestCase {
    private func text(_ body: String) -> String { ThreadPreviewCache.line(of: body).text }

    func testBlocksJoinIntoOneLineWithoutQuoteBarsOrReadings() {
        XCTAssertEqual(text("> quoted\n\n- one\n- two\n\n# Title\nplain"), "quoted • one • two # Title plain")
        XCTAssertEqual(text("{漢字|かんじ} ruby").contains("かんじ"), false, "a reading has a row of its own, which a preview leaves out")
    }

    /// Only the start of a huge body is parsed, cut where no spoiler is left open: a spoiler the
    /// cut falls in is still one, so its words are masked, never shown as literal text.
    func testASpoilerTheParsedPartEndsInStaysHidden() {
        // No space or line break near the cut: it falls inside the spoiler's long word.
        let body = String(repeating: "word ", count: 40) + "||butler" + String(repeating: "x", count: ThreadPreviewCache.parsedBytes) + "||"
        let line = ThreadPreviewCache.line(of: body)
        let butler = line.runs.filter { $0.clusters.map(\.text).joined().contains("butler") }
        XCTAssertFalse(butler.isEmpty, "the spoiler's start was parsed")
        XCTAssertTrue(butler.allSatisfy { $0.style.spoiler != nil }, "and is still a spoiler")
        XCTAssertFalse(line.text.contains("||"), "no bars shown as text")
    }

    func testACutLineEndsInAnEllipsisWithinTheWidth() {
        let line = ThreadPreviewCache.line(of: "hello wonderful world of threads")
        let cut = ThreadPreviewCache.cut(line, to: 12)
        XCTAssertEqual(cut.text, "hello wonde…", "cut between characters, as TextFit cuts")
        XCTAssertLessThanOrEqual(cut.width, 12)
        XCTAssertEqual(ThreadPreviewCache.cut(line, to: 40), line, "a line that fits is whole")
        XCTAssertEqual(ThreadPreviewCache.cut(ThreadPreviewCache.line(of: "日本語の文章"), to: 7).text, "日本語…")
    }

    func testTheCacheParsesAThreadsPreviewOnceWhileItIsTheSame() {
        let cache = ThreadPreviewCache()
        let key = ThreadKey.demo
        XCTAssertEqual(cache.line(for: key, body: "one").text, "one")
        XCTAssertEqual(cache.line(for: key, body: "two").text, "two", "a new body is parsed again")
    }
}
