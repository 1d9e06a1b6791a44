import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A long line is laid out piece by piece (issue 36: expanding an 8 MB comment of one paragraph
/// held all its clusters twice over, 2.3 GB, while it was wrapped): `LogicalLines` hands a line
/// over in pieces of about `pieceClusters`, and the wrapper keeps only the row it fills.
final class LongLinePieceTests: XCTestCase {
    /// Words in one paragraph, `bytes` long, ending in "THE END".
    private static func paragraph(bytes: Int) -> String {
        var text = ""
        text.reserveCapacity(bytes + 20)
        var n = 0
        while text.utf8.count < bytes {
            text += "word\(n) "
            n += 1
        }
        return text + "THE END"
    }

    func testALongParagraphIsHandedOverInBoundedPieces() {
        let body = Self.paragraph(bytes: 300_000)
        var pieces: [(count: Int, goesOn: Bool)] = []
        LogicalLines.forEach(in: CommentMarkup.parseRuns(body, handles: { _ in nil })) { pieces.append(($0.clusters.count, $0.goesOn)) }
        XCTAssertEqual(pieces.reduce(0) { $0 + $1.count }, body.utf8.count, "every character, once")
        // 300,000 clusters: never held at once, but in pieces of at most 10,000.
        XCTAssertLessThanOrEqual(pieces.map(\.count).max() ?? 0, 10_000, "no piece longer than 10,000 clusters")
        XCTAssertGreaterThanOrEqual(pieces.count, 30)
        XCTAssertEqual(pieces.map(\.goesOn), Array(repeating: true, count: pieces.count - 1) + [false], "one line, in pieces")
    }

    /// Whatever the pieces, the rows are those of the line laid out whole: breaks, wide and
    /// joined characters, ruby, links' hosts, prefixes, code.
    func testLaidOutInPiecesALineWrapsAsWhole() {
        let bodies = [
            "plain words that wrap over several rows of a narrow width, and an overlongwordthatbreaks here",
            "日本語のテキスト。「かぎかっこ」と、句読点！ mixed with ascii 漢字漢字漢字漢字",
            "flags 🇫🇷🇩🇪🇯🇵🇺🇸🇧🇷🇮🇳 odd 🇫🇷🇩 family 👨‍👩‍👧 skin 👍🏽 e\u{301}a\u{308} and a\u{200D}b",
            "ruby {漢字|かんじ} and a wide one {字|とてもながいよみがなです} and {base|r} end {東京|とうきょう}",
            "a [link text](https://example.com/page) and ||a spoiler [hidden](https://hidden.example)|| `code` **bold** more",
            "> a quote that goes on for long enough to wrap\n>\n> and a second paragraph of it\n\n- an item that wraps onto rows\n- two",
            "```\ncode\twith tabs   and  spaces that wrap at the width exactly\n```\n# a heading that wraps too",
        ]
        for body in bodies {
            let runs = CommentMarkup.parseRuns(body, handles: { _ in nil })
            for width in [12, 30] {
                let whole = TextLayout(runs, width: width, pieceClusters: .max)
                for piece in [1, 2, 3, 5, 7, 64] {
                    XCTAssertEqual(TextLayout(runs, width: width, pieceClusters: piece).lines.map(\.text), whole.lines.map(\.text),
                                   "pieces of \(piece) at \(width): \(body)")
                    XCTAssertEqual(TextLayout(runs, width: width, pieceClusters: piece), whole, "pieces of \(piece) at \(width): \(body)")
                }
            }
        }
    }

    /// A comment of one long paragraph, expanded and shown all: every word once, in order,
    /// rows no wider than the body.
    func testAHugeParagraphShownAllHasEveryWordInOrder() throws {
        let body = Self.paragraph(bytes: 200_000)
        var fixture = ThreadFixture.numbered(2)
        fixture.add(Comment(id: "long", author: "u1", created: ThreadFixture.start, body: body))
        let pilot = fixture.pilot(columns: 80, rows: 30)
        pilot.settle()
        XCTAssertGreaterThan(pilot.app.feed.layout(2).hiddenBytes, 100_000)
        pilot.app.feed.selected = 2
        pilot.press(.alt("e"))
        pilot.press(.alt("e"))
        let layout = pilot.app.feed.layout(2)
        XCTAssertEqual(layout.hiddenBytes, 0)
        let rows = layout.body.lines.dropLast().map(\.text)
        XCTAssertTrue(rows.allSatisfy { DisplayWidth.width(of: $0) <= FeedLayout(width: 80).bodyWidth })
        XCTAssertEqual(rows.joined(separator: " "), body)
    }
}
