import Foundation
import XCTest
@testable import ThreadModel

/// What the parser puts on the attributed text: formatting, links, mentions, spoilers, blocks,
/// and visible stand-ins for hostile characters.
final class CommentMarkupTests: XCTestCase {
    private let users = [User(id: "u1", handle: "tatiana", name: "Tatiana B."), User(id: "u2", handle: "bo_r", name: "Bo R.")]

    private func parse(_ body: String) -> AttributedString { CommentMarkup.parse(body, users: users) }

    /// (text, attribute) for every run, for compact assertions.
    private func runs<K: AttributedStringKey>(_ s: AttributedString, _ key: K.Type) -> [(String, K.Value?)] where K.Value: Hashable & Sendable {
        s.runs[key].map { (String(s[$0.1].characters), $0.0) }
    }

    func testFormattingBecomesAttributes() {
        let s = parse("a *em* **strong** ~~gone~~ `x*y*`")
        XCTAssertEqual(String(s.characters), "a em strong gone x*y*")
        XCTAssertEqual(runs(s, CommentAttributes.EmphasisAttribute.self).filter { $0.1 == true }.map(\.0), ["em"])
        XCTAssertEqual(runs(s, CommentAttributes.StrongAttribute.self).filter { $0.1 == true }.map(\.0), ["strong"])
        XCTAssertEqual(runs(s, CommentAttributes.StrikethroughAttribute.self).filter { $0.1 == true }.map(\.0), ["gone"])
        XCTAssertEqual(runs(s, CommentAttributes.CodeAttribute.self).filter { $0.1 == true }.map(\.0), ["x*y*"])
    }

    func testLinksCarryTheirTarget() {
        let s = parse("see [the docs](https://example.com/a\\)b \"T\") and <https://x.org> or www.swift.org.")
        let links = runs(s, CommentAttributes.LinkAttribute.self).compactMap { $0.1 == nil ? nil : "\($0.0)=\($0.1!)" }
        XCTAssertEqual(links, ["the docs=https://example.com/a)b", "https://x.org=https://x.org", "www.swift.org=http://www.swift.org"])
    }

    func testMentionsOnlyForKnownUsersOutsideCodeAndLinks() {
        let s = parse("@tatiana and @nobody, mail@tatiana `@tatiana` [@bo_r](https://b) (@bo_r).")
        let mentions = runs(s, CommentAttributes.MentionAttribute.self).compactMap { $0.1 == nil ? nil : "\($0.0)=\($0.1!)" }
        XCTAssertEqual(mentions, ["@tatiana=u1", "@bo_r=u2"])
        XCTAssertEqual(String(s.characters), "@tatiana and @nobody, mail@tatiana @tatiana @bo_r (@bo_r).")
    }

    func testTypingAfterAMentionDoesNotExtendItAndEditingInsideRemovesIt() {
        var s = parse("@tatiana")
        s.append(AttributedString("x"))
        s.characters.append("y")
        XCTAssertEqual(runs(s, CommentAttributes.MentionAttribute.self).compactMap { $0.1 == nil ? nil : $0.0 }, ["@tatiana"])
        let inside = s.characters.index(s.startIndex, offsetBy: 3)
        s.characters.insert("Z", at: inside)
        XCTAssertTrue(runs(s, CommentAttributes.MentionAttribute.self).allSatisfy { $0.1 == nil })
    }

    func testSpoilersMayContainFormattingAndAreNumbered() {
        let s = parse("||the **end**|| and ||twist||")
        XCTAssertEqual(String(s.characters), "the end and twist")
        let spoilers = runs(s, CommentAttributes.SpoilerAttribute.self).compactMap { $0.1 == nil ? nil : "\($0.0)#\($0.1!)" }
        XCTAssertEqual(spoilers, ["the end#1", "twist#2"])
        XCTAssertEqual(runs(s, CommentAttributes.StrongAttribute.self).filter { $0.1 == true }.map(\.0), ["end"])
        XCTAssertEqual(String(parse("a || b || c|||d").characters), "a || b || c|||d")
    }

    func testBlocks() {
        let body = "first line\nsecond\n\n> quoted *q*\n\n```swift\nlet x = *1*\n```\n- one\n- two"
        let s = parse(body)
        XCTAssertEqual(String(s.characters), "first line\nsecond\nquoted q\nlet x = *1*\n\none\ntwo")
        let blocks = runs(s, CommentAttributes.BlockAttribute.self).compactMap { run -> String? in
            guard let b = run.1 else { return nil }
            return "\(b.index):\(b.role):\(b.quoteDepth):\(run.0.debugDescription)"
        }
        XCTAssertEqual(blocks, [
            "0:paragraph:0:\"first line\\nsecond\"",
            "1:paragraph:1:\"quoted q\"",
            "2:codeBlock(info: \"swift\"):0:\"let x = *1*\\n\"",
            "3:listItem(ordered: false, number: 0, list: 1):0:\"one\"",
            "4:listItem(ordered: false, number: 0, list: 1):0:\"two\"",
        ])
        XCTAssertEqual(HTMLRenderer.render(MarkupDocument(parsing: body, handles: { _ in nil })), """
            <p>first line<br />
            second</p>
            <blockquote>
            <p>quoted <em>q</em></p>
            </blockquote>
            <pre><code class="language-swift">let x = *1*
            </code></pre>
            <ul>
            <li>one</li>
            <li>two</li>
            </ul>

            """)
    }

    /// As in CommonMark, a fence's content is not scanned for block starts: a `>` there is code;
    /// fewer markers than the fence's own still end it.
    func testQuoteMarkersInsideAFenceAreCode() {
        let body = "```\n> prompt\n>> more\n```\n> ```\n> > in quote\nout"
        let blocks = MarkupDocument(parsing: body, handles: { _ in nil }).blocks
        XCTAssertEqual(blocks.map(\.block.role), [.codeBlock(info: ""), .codeBlock(info: ""), .paragraph])
        XCTAssertEqual(blocks.map(\.block.quoteDepth), [0, 1, 0])
        XCTAssertEqual(blocks.map(\.items), [[.code("> prompt\n>> more\n")], [.code("> in quote\n")], [.text("out")]])
    }

    func testHostileCharactersBecomeVisiblePlaceholders() {
        let s = parse("a\u{1B}[31mb\u{7F}c\u{85}d\u{202E}e&#x202E;f\tg\r\nh\u{200B}i")
        XCTAssertEqual(String(s.characters), "a\u{241B}[31mb\u{2421}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\tg\nh\u{FFFD}i")
        let link = parse("[x](http://a\u{202E}b)")
        XCTAssertEqual(runs(link, CommentAttributes.LinkAttribute.self).compactMap(\.1), ["http://a\u{FFFD}b"])
    }

    func testJoinersAndVariationSelectorsInsideClustersAreKept() {
        let text = "👩‍💻 ❤️ क्‍ष 🏴󠁧󠁢󠁳󠁣󠁴󠁿 *👨‍👩‍👧*"
        XCTAssertEqual(String(parse(text).characters), "👩‍💻 ❤️ क्‍ष 🏴󠁧󠁢󠁳󠁣󠁴󠁿 👨‍👩‍👧")
        // A joiner with nothing to join is shown, not hidden.
        XCTAssertEqual(String(parse("\u{200D}x").characters), "\u{FFFD}x")
    }

    func testRawHTMLIsText() {
        let html = HTMLRenderer.render(MarkupDocument(parsing: "<b onclick=\"x\">hi</b>", handles: { _ in nil }))
        XCTAssertEqual(html, "<p>&lt;b onclick=&quot;x&quot;&gt;hi&lt;/b&gt;</p>\n")
    }
}

/// Spoilers with spaces inside, hosts in any script, references in `<…>` destinations.
extension CommentMarkupTests {
    private func html(_ body: String) -> String {
        HTMLRenderer.render(MarkupDocument(parsing: body, handles: { _ in nil }))
    }

    func testSpoilersMayKeepSpacesInsideWhereTheyStartOrEndALine() {
        XCTAssertEqual(html("|| the butler did it ||"), "<p><span class=\"spoiler\"> the butler did it </span></p>\n")
        XCTAssertEqual(html("He said || the butler did it ||"), "<p>He said <span class=\"spoiler\"> the butler did it </span></p>\n")
        XCTAssertEqual(html("|| twist || lol"), "<p><span class=\"spoiler\"> twist </span> lol</p>\n")
        XCTAssertEqual(html("a\n|| on its own line ||\nb"), "<p>a<br />\n<span class=\"spoiler\"> on its own line </span><br />\nb</p>\n")
        // Between words, spaced bars are an operator, not a spoiler.
        XCTAssertEqual(html("if a || b || c then"), "<p>if a || b || c then</p>\n")
        XCTAssertEqual(html("x ||y|| z"), "<p>x <span class=\"spoiler\">y</span> z</p>\n")
    }

    func testWebLinksWithInternationalHostsAreLinked() {
        let s = parse("http://пример.com/ and https://例え.jp/a, www.пример.com.")
        let links = runs(s, CommentAttributes.LinkAttribute.self).compactMap { $0.1 == nil ? nil : "\($0.0)=\($0.1!)" }
        XCTAssertEqual(links, ["http://пример.com/=http://пример.com/", "https://例え.jp/a=https://例え.jp/a",
                               "www.пример.com=http://www.пример.com"])
        // Punctuation still ends a host, as in ASCII.
        XCTAssertEqual(html("https://«пример»"), "<p>https://«пример»</p>\n")
    }

    func testReferencesInPointyDestinationsAreDecoded() {
        XCTAssertEqual(html("[a](<f&ouml;o&#32;&amp;>)"), "<p><a href=\"f%C3%B6o%20&amp;\">a</a></p>\n")
        XCTAssertEqual(html("[b]\n\n[b]: <&auml;>"), "<p><a href=\"%C3%A4\">b</a></p>\n")
    }
}

extension CommentMarkupTests {
    func testReferenceLinksUseDefinitionsAnywhereInTheComment() {
        let s = CommentMarkup.parse("see [the Docs] and [x][the  DOCS], [y][]\n\n[THE docs]: https://d.example \"D\"\n[y]: /y", handles: { _ in nil })
        XCTAssertEqual(String(s.characters), "see the Docs and x, y")
        let links = s.runs[CommentAttributes.LinkAttribute.self].compactMap { $0.0 == nil ? nil : "\(String(s[$0.1].characters))=\($0.0!)" }
        XCTAssertEqual(links, ["the Docs=https://d.example", "x=https://d.example", "y=/y"])
    }
}

extension CommentMarkupTests {
    func testRawHTMLIsOneLiteralPieceThatMarkupCannotReachInto() {
        let s = CommentMarkup.parse("*<a href=\"*\">* and <!-- *x* -->", handles: { _ in nil })
        XCTAssertEqual(String(s.characters), "<a href=\"*\"> and <!-- *x* -->")
        let emphasised = s.runs[CommentAttributes.EmphasisAttribute.self].compactMap { $0.0 == true ? String(s[$0.1].characters) : nil }
        XCTAssertEqual(emphasised, ["<a href=\"*\">"])
    }
}

/// Headings; quotes that end at a blank line, or go on across a quoted one.
extension CommentMarkupTests {
    func testATXHeadingsAreBlocksOfTheirOwn() {
        XCTAssertEqual(html("Markdown headings:\n# Heading one\n## Heading two ##\nafter"),
                       "<p>Markdown headings:</p>\n<h1>Heading one</h1>\n<h2>Heading two</h2>\n<p>after</p>\n")
        // A `#` with no space after it is no heading: hashtags and issue numbers stay text.
        XCTAssertEqual(html("#hashtag and\n#5 bolt\n####### seven"), "<p>#hashtag and<br />\n#5 bolt<br />\n####### seven</p>\n")
        XCTAssertEqual(html("> ### *quoted*"), "<blockquote>\n<h3><em>quoted</em></h3>\n</blockquote>\n")
        XCTAssertEqual(RunsJSON.encode(parse("###### six")),
                       "[\n  {\"text\": \"six\", \"attributes\": {\"block\": {\"index\": 0, \"level\": 6, \"quoteDepth\": 0, \"role\": \"heading\"}}}\n]")
    }

    func testAQuoteEndsAtABlankLineUnlessTheBlankLineIsQuotedToo() {
        XCTAssertEqual(html("> a\n>\n> b"), "<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>\n")
        XCTAssertEqual(html("> a\n\n> b"), "<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n")
        XCTAssertEqual(html("> > a\n>\n> > b"),
                       "<blockquote>\n<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n</blockquote>\n")
        // An empty quote is a quote; it adds no text, so the attributed text is unchanged.
        XCTAssertEqual(html("a\n\n>\n\nb"), "<p>a</p>\n<blockquote>\n</blockquote>\n<p>b</p>\n")
        XCTAssertEqual(String(parse("a\n\n>\n\nb").characters), "a\nb")
    }
}
