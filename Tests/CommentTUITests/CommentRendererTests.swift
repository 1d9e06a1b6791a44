import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// The renderer over a layout: what each cell shows and how it is styled.
final class CommentRendererTests: XCTestCase {
    private func draw(_ body: String, width: Int = 40, revealed: Set<Int> = [], me: String? = nil) -> CellBuffer {
        let layout = TextLayout(CommentMarkup.parse(body, handles: { ["ana": "u-ana", "me": "u-me"][$0] }), width: width)
        var buffer = CellBuffer(columns: width, rows: layout.lines.count)
        let renderer = CommentRenderer(revealedSpoilers: revealed, ownUserID: me)
        for (row, line) in layout.lines.enumerated() {
            renderer.draw(line, into: &buffer, column: 0, row: row, limit: width)
        }
        buffer._checkInvariants()
        return buffer
    }

    func testSpoilersAreMaskedCellForCellUntilRevealed() {
        let hidden = draw("a ||secret 日本|| b ||two||")
        XCTAssertEqual(hidden.trimmedLines, ["a ░░░░░░░░░░░ b ░░░"])
        let first = draw("a ||secret 日本|| b ||two||", revealed: [1])
        XCTAssertEqual(first.trimmedLines, ["a secret 日本 b ░░░"], "same width: nothing after it moved")
        XCTAssertEqual(hidden[2, 0].style, Theme.spoiler)
    }

    func testStylesComeFromTheAttributes() {
        let buffer = draw("**b** *i* `c` @ana @me [l](https://x.org)")
        XCTAssertTrue(buffer[0, 0].style.attributes.contains(.bold))
        XCTAssertTrue(buffer[2, 0].style.attributes.contains(.italic))
        XCTAssertEqual(buffer[4, 0].style, Theme.code)
        XCTAssertEqual(buffer[6, 0].style, Theme.mention)
        XCTAssertEqual(buffer[11, 0].style, Theme.mention, "not me: plain highlight")
        XCTAssertEqual(draw("@me", me: "u-me")[0, 0].style, Theme.mentionOfMe)
        XCTAssertEqual(buffer[15, 0].style, Theme.link)
        XCTAssertEqual(buffer.trimmedLines, ["b i c @ana @me l (x.org)"])
        XCTAssertEqual(buffer[17, 0].style, Theme.linkHost)
    }

    func testStrikethroughIsALongStrokeOnEachCell() {
        let buffer = draw("~~no~~ yes")
        XCTAssertEqual(buffer[0, 0].text, "n\u{0336}")
        XCTAssertEqual(buffer[1, 0].text, "o\u{0336}")
        XCTAssertEqual(buffer[3, 0].text, "y")
        XCTAssertEqual(buffer[0, 0].width, 1)
    }

    func testHeadingsAreBoldBehindADimMarker() {
        let buffer = draw("## Heading two")
        XCTAssertEqual(buffer.trimmedLines, ["## Heading two"])
        XCTAssertTrue(buffer[0, 0].style.attributes.contains(.dim))
        XCTAssertFalse(buffer[0, 0].style.attributes.contains(.bold))
        XCTAssertTrue(buffer[3, 0].style.attributes.contains(.bold))
        XCTAssertTrue(buffer[13, 0].style.attributes.contains(.bold))
    }

    func testQuotesDimTheirBars() {
        let buffer = draw("> said")
        XCTAssertEqual(buffer.trimmedLines, ["│ said"])
        XCTAssertEqual(buffer[0, 0].style, Theme.quoteBar)
        XCTAssertEqual(buffer[2, 0].style.foreground, Theme.quoteText.foreground)
    }
}

/// Header forms, relative times.
final class CommentHeaderLayoutTests: XCTestCase {
    private func texts(_ header: CommentHeaderLayout, time: String = "5m ago") -> [String] {
        header.rows.map { row in
            var out = ""
            for (n, piece) in row.enumerated() {
                if n > 0, piece != .separator, row[n - 1] != .separator { out += " " }
                out += CommentHeaderLayout.text(of: piece, time: time).text
            }
            return out
        }
    }

    func testTheFirstFormThatFitsIsChosen() {
        let wide = CommentHeaderLayout(name: "Tatiana Brooks", handle: "tatiana", edited: true, width: 60)
        XCTAssertEqual(wide.form, .compact)
        XCTAssertEqual(texts(wide), ["Tatiana Brooks @tatiana · 5m ago · edited"])
        // 14 + 1 + 8 + 3 + 10 (widest time) + 9 = 45 columns: one short of fitting.
        let standard = CommentHeaderLayout(name: "Tatiana Brooks", handle: "tatiana", edited: true, width: 44)
        XCTAssertEqual(standard.form, .standard)
        XCTAssertEqual(texts(standard), ["Tatiana Brooks · 5m ago · edited", "@tatiana"])
        let extended = CommentHeaderLayout(name: "Tatiana Brooks", handle: "tatiana", edited: true, width: 24)
        XCTAssertEqual(extended.form, .extended)
        XCTAssertEqual(texts(extended), ["Tatiana Brooks", "@tatiana", "5m ago · edited"])
    }

    func testAChangedIdentityFollowsTheNameInEveryForm() {
        let wide = CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, identityChanged: true, width: 60)
        XCTAssertEqual(texts(wide), ["Bo ⚠ identity changed @bo · 5m ago"])
        let standard = CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, identityChanged: true, width: 34)
        XCTAssertEqual(texts(standard), ["Bo ⚠ identity changed · 5m ago", "@bo"])
        let extended = CommentHeaderLayout(name: "Bo Bergström", handle: "bo", edited: false, identityChanged: true, width: 20)
        XCTAssertEqual(extended.form, .extended)
        XCTAssertEqual(texts(extended), ["Bo Bergström", "⚠ identity changed", "@bo", "5m ago"], "its own row, never cut")
        XCTAssertFalse(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, width: 60)).joined().contains("⚠"))
    }

    func testTheExtendedFormCutsANameOrHandleTooWideWithAnEllipsis() {
        let header = CommentHeaderLayout(name: "Maximiliane Alexandra", handle: "maximiliane_alexandra", edited: false, width: 16)
        XCTAssertEqual(header.form, .extended)
        XCTAssertEqual(texts(header), ["Maximiliane Ale…", "@maximiliane_al…", "5m ago"])
        XCTAssertEqual(texts(CommentHeaderLayout(name: "日本語の名前です", handle: nil, edited: false, width: 9)), ["日本語の…", "5m ago"])
        XCTAssertEqual(texts(CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, width: 16)), ["Bo · 5m ago", "@bo"], "nothing cut that fits")
    }

    func testTheFormIsMeasuredWithTheWidestTimeSoItNeverChangesAsTimePasses() {
        // "now" would fit at 24 columns, the widest date would not: standard from the start.
        let header = CommentHeaderLayout(name: "Bo", handle: "bo", edited: false, width: 16)
        XCTAssertEqual(header.form, .standard)
        XCTAssertEqual(texts(header, time: "now"), ["Bo · now", "@bo"])
    }

    func testRelativeTimes() {
        let then = Date(timeIntervalSince1970: 1_744_884_000)
        XCTAssertEqual(RelativeTime.text(for: then, now: then.addingTimeInterval(59)), "now")
        XCTAssertEqual(RelativeTime.text(for: then, now: then.addingTimeInterval(60 * 5 + 3)), "5m ago")
        XCTAssertEqual(RelativeTime.text(for: then, now: then.addingTimeInterval(3600 * 23)), "23h ago")
        XCTAssertEqual(RelativeTime.text(for: then, now: then.addingTimeInterval(86_400 * 6)), "6d ago")
        XCTAssertEqual(RelativeTime.text(for: then, now: then.addingTimeInterval(86_400 * 8)), "2025-04-17")
        XCTAssertEqual(RelativeTime.secondsToNextMinute(then.addingTimeInterval(12)), 48)
    }
}
