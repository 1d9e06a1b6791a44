import Foundation
import XCTest
@testable import ThreadModel

/// `{base|reading}` ruby: what the parser makes of it, its HTML and JSON, and where it is text.
final class RubyMarkupTests: XCTestCase {
    private let users = [User(id: "u1", handle: "tatiana", name: "Tatiana B.")]

    private func html(_ body: String) -> String {
        HTMLRenderer.render(MarkupDocument(parsing: body, handles: { $0 == "tatiana" ? "u1" : nil }))
    }

    /// (text, reading) for every run that has a reading.
    private func readings(_ body: String) -> [String] {
        let s = CommentMarkup.parse(body, users: users)
        return s.runs[CommentAttributes.RubyAttribute.self].compactMap { value, range in
            value.map { "\(String(s[range].characters))=\($0.reading)#\($0.number)" }
        }
    }

    func testAnAnnotationPutsItsReadingOnTheBase() {
        let s = CommentMarkup.parse("今日は{東京|とうきょう}で{日本語|にほんご}", users: users)
        XCTAssertEqual(String(s.characters), "今日は東京で日本語", "the markup and the reading leave the text")
        XCTAssertEqual(readings("今日は{東京|とうきょう}で{日本語|にほんご}"), ["東京=とうきょう#1", "日本語=にほんご#2"])
        XCTAssertEqual(html("{漢字|かんじ}を読む"), "<p><ruby>漢字<rt>かんじ</rt></ruby>を読む</p>\n")
    }

    func testAdjacentAnnotationsWithOneReadingStayApart() {
        XCTAssertEqual(readings("{日|ひ}{日|ひ}"), ["日=ひ#1", "日=ひ#2"])
    }

    func testTheBaseIsMarkupAndTheReadingPlainText() {
        XCTAssertEqual(html("**{漢字|かんじ}**"), "<p><strong><ruby>漢字<rt>かんじ</rt></ruby></strong></p>\n")
        XCTAssertEqual(html("{**漢**字|かんじ}"), "<p><ruby><strong>漢</strong>字<rt>かんじ</rt></ruby></p>\n")
        XCTAssertEqual(html("[{漢字|かんじ}](https://x.example)"),
                       "<p><a href=\"https://x.example\"><ruby>漢字<rt>かんじ</rt></ruby></a></p>\n")
        XCTAssertEqual(html("{@tatiana|たちあな}"),
                       "<p><ruby><span class=\"mention\" data-user=\"u1\">@tatiana</span><rt>たちあな</rt></ruby></p>\n")
        XCTAssertEqual(html("{a|**b** `c` &amp; \\} [d](e)}"), "<p>{a|<strong>b</strong> <code>c</code> &amp; } <a href=\"e\">d</a>}</p>\n",
                       "a backtick ends a reading: code wins")
        XCTAssertEqual(html("{a|**b** &amp; \\} [d](e)}"), "<p><ruby>a<rt>**b** &amp; } [d](e)</rt></ruby></p>\n")
        // No links inside links: a link around a base takes the base's links and mentions.
        XCTAssertEqual(html("[{[x](https://in) @tatiana|r}](https://out)"),
                       "<p><a href=\"https://out\"><ruby>x @tatiana<rt>r</rt></ruby></a></p>\n")
    }

    func testBracesThatAreNoAnnotationStayText() {
        for body in ["{|b}", "{a|}", "{ |b}", "{a| }", "{a}", "{a|b", "a|b}", "{a\nb|c}", "{a|b\nc}", "{a&#10;b|c}", "{a|b|c}", "{a}b|c}"] {
            XCTAssertEqual(readings(body), [], body)
        }
        XCTAssertEqual(html("{|b} {a|} {a|b|c}"), "<p>{|b} {a|} {a|b|c}</p>\n")
    }

    func testABackslashMakesTheBracesText() {
        XCTAssertEqual(html("\\{a|b}"), "<p>{a|b}</p>\n")
        XCTAssertEqual(readings("\\{a|b}"), [])
        // Escapes inside keep the boundaries apart.
        XCTAssertEqual(readings("{a\\|b|c\\}d}"), ["a|b=c}d#1"])
    }

    func testCodeWinsOverRuby() {
        XCTAssertEqual(html("`{a|b}`"), "<p><code>{a|b}</code></p>\n")
        XCTAssertEqual(html("{a `|` b}"), "<p>{a <code>|</code> b}</p>\n")
        XCTAssertEqual(html("{a|`b}`"), "<p>{a|<code>b}</code></p>\n")
        XCTAssertEqual(html("```\n{a|b}\n```"), "<pre><code>{a|b}\n</code></pre>\n")
    }

    func testNestedBracesAnnotateTheInnerPair() {
        XCTAssertEqual(html("{{漢|か}|x}"), "<p>{<ruby>漢<rt>か</rt></ruby>|x}</p>\n")
    }

    func testHostileReadingsAreMadeVisible() {
        let reading = CommentMarkup.parse("{字|\u{1B}[2J\u{202E}x\u{7}}", users: users).runs
            .compactMap { $0[CommentAttributes.RubyAttribute.self]?.reading }.first
        XCTAssertEqual(reading, "␛[2J\u{FFFD}x␇")
        XCTAssertEqual(html("{字|<b>\u{1B}</b>}"), "<p><ruby>字<rt>&lt;b&gt;␛&lt;/b&gt;</rt></ruby></p>\n")
    }

    func testJSONRunsShowTheReading() {
        let json = RunsJSON.encode(CommentMarkup.parse("a{字|じ}", users: users))
        XCTAssertEqual(json, """
            [
              {"text": "a", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}}},
              {"text": "字", "attributes": {"block": {"index": 0, "quoteDepth": 0, "role": "paragraph"}, "ruby": "じ"}}
            ]
            """)
    }

    func testMatrixHTMLHasParenthesesForOtherClientsAndReadsBackAsRuby() {
        let document = MarkupDocument(parsing: "{漢字|かんじ}", handles: { _ in nil })
        let html = MatrixHTMLWriter.html(document, displayName: { _ in nil })
        XCTAssertEqual(html, "<p><ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby></p>")
        // A client that drops the tags shows the base then `(かんじ)`; ours reads ruby back.
        let readBack = MatrixHTMLReader.markdown(fromHTML: html, handleForUserID: { _ in nil })
        XCTAssertEqual(readBack, "{漢字|かんじ}")
        let runs = CommentMarkup.parse(readBack, handles: { _ in nil }).runs
        XCTAssertEqual(runs.map { $0.attributes[CommentAttributes.RubyAttribute.self]?.reading }, ["かんじ"])
    }
}
