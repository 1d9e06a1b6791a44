import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// A reply's one-row quote is cut from the parsed target: its spoilers stay masked however the
/// row is cut, a long name is cut first, and the body's spoilers keep their numbers.
final class ReplyQuoteTests: XCTestCase {
    private let created = Date(timeIntervalSince1970: 1_700_000_000)

    private func target(_ body: String) -> Comment { Comment(id: "t", author: "u2", created: created, body: body) }

    /// The reply `body` (answering `target`) laid out at `width`, with the quote of `quote`.
    private func layout(_ body: String, quote: ReplyQuote?, width: Int = 40) -> CommentLayout {
        let reply = Comment(id: "r", author: "u1", created: created, body: body, replyTo: "t")
        let source = FeedLayout.Source(item: { _ in .comment(reply) }, user: { _ in nil }, handleID: { _ in nil },
                                       isExpanded: { _ in false }, replyQuote: { _ in quote })
        return FeedLayout(width: width).layout(of: 0, source)
    }

    func testASpoilerCutShortInTheQuoteStaysMasked() {
        let quote = ReplyQuote(target: target("the killer is ||Bruce Willis all along, since the first scene||"), author: "Bo")
        let line = layout("ok", quote: quote, width: 34).body.lines[0]
        XCTAssertTrue(line.text.hasPrefix("│ ↪ Bo: the killer is ░"), line.text)
        XCTAssertTrue(line.text.hasSuffix("…"), line.text)
        XCTAssertFalse(line.text.contains("Bruce"), line.text)
        XCTAssertLessThanOrEqual(line.width, 30)
        XCTAssertTrue(line.runs.allSatisfy { $0.style.spoiler == nil }, "nothing in the quote can be revealed")
    }

    func testASpoilerOverALineBreakStaysMaskedInTheQuote() {
        let line = layout("ok", quote: ReplyQuote(target: target("||Bruce\nWillis||"), author: "Bo")).body.lines[0]
        XCTAssertEqual(line.text, "│ ↪ Bo: ░░░░░")
    }

    func testALongNameIsCutToAThirdOfTheRow() {
        let name = String(repeating: "Bartholomew ", count: 100)
        let line = layout("ok", quote: ReplyQuote(target: target("the question"), author: name), width: 64).body.lines[0]
        XCTAssertLessThanOrEqual(line.width, 60)
        XCTAssertTrue(line.text.contains("…: the question"), line.text)
    }

    func testTheBodysSpoilersKeepTheirNumbersUnderAQuoteWithSpoilers() {
        let plain = layout("my ||secret||", quote: nil)
        let quoted = layout("my ||secret||", quote: ReplyQuote(target: target("||one|| and ||two||"), author: "Bo"))
        XCTAssertEqual(quoted.spoilers, plain.spoilers)
        XCTAssertEqual(quoted.body.lines.count, plain.body.lines.count + 2, "the quote and a blank row above the body")
        XCTAssertEqual(quoted.replyQuoteLines, 1)
        // The body's spoiler, revealed as it was before the quote came, is the one drawn revealed.
        let spoiler = plain.spoilers.first!
        let bodyLine = quoted.body.lines[2]
        XCTAssertEqual(bodyLine.runs.first { $0.style.spoiler != nil }?.style.spoiler, spoiler)
        var buffer = CellBuffer(columns: 40, rows: 2)
        let renderer = CommentRenderer(revealedSpoilers: [spoiler])
        renderer.draw(quoted.body.lines[0], into: &buffer, column: 0, row: 0, limit: 40)
        renderer.draw(bodyLine, number: 2, into: &buffer, column: 0, row: 1, limit: 40)
        let rows = (0..<2).map { buffer.line($0) }
        XCTAssertFalse(rows[0].contains("one") || rows[0].contains("two"), rows[0])
        XCTAssertTrue(rows[1].hasPrefix("my secret"), rows[1])
    }
}
