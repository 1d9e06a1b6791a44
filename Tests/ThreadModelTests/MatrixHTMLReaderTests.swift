import Foundation
import XCTest
@testable import ThreadModel

/// Matrix HTML and plain bodies into our Markdown, judged by what our parser then shows.
final class MatrixHTMLReaderTests: XCTestCase {
    static let ids = ["alice": "@alice:example.org", "bob": "@bob:example.org", "name": "@name:example.org"]
    static func handle(for userID: String) -> String? { ids.first { $0.value == userID }?.key }
    static func userID(for handle: String) -> String? { ids[handle.lowercased()] }

    private func read(_ html: String) -> String {
        MatrixHTMLReader.markdown(fromHTML: html, handleForUserID: Self.handle(for:))
    }

    /// Each run as text plus its attributes in braces, for compact assertions.
    static func shown(_ markdown: String) -> [String] {
        describe(CommentMarkup.parse(markdown, handles: userID(for:)))
    }

    static func describe(_ s: AttributedString) -> [String] {
        s.runs.map { run in
            let a = run.attributes
            var tags: [String] = []
            if a[CommentAttributes.StrongAttribute.self] == true { tags.append("strong") }
            if a[CommentAttributes.EmphasisAttribute.self] == true { tags.append("em") }
            if a[CommentAttributes.StrikethroughAttribute.self] == true { tags.append("strike") }
            if a[CommentAttributes.CodeAttribute.self] == true { tags.append("code") }
            if let link = a[CommentAttributes.LinkAttribute.self] { tags.append("link=" + link) }
            if let id = a[CommentAttributes.MentionAttribute.self] { tags.append("mention=" + id) }
            if let n = a[CommentAttributes.SpoilerAttribute.self] { tags.append("spoiler\(n)") }
            if let r = a[CommentAttributes.RubyAttribute.self] { tags.append("ruby\(r.number)=" + r.reading) }
            if let block = a[CommentAttributes.BlockAttribute.self] {
                switch block.role {
                case .paragraph: break
                case .codeBlock(let info): tags.append("pre:" + info)
                case .listItem(let ordered, let number, _): tags.append(ordered ? "li\(number)." : "li-")
                case .heading(let level): tags.append("h\(level)")
                }
                if block.quoteDepth > 0 { tags.append("q\(block.quoteDepth)") }
            }
            let text = String(s[run.range].characters)
            return tags.isEmpty ? text : text + "{" + tags.joined(separator: ",") + "}"
        }
    }

    private func assertShows(_ html: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let markdown = read(html)
        XCTAssertEqual(Self.shown(markdown), expected, "markdown: \(markdown)", file: file, line: line)
    }

    // MARK: Element-style input

    func testInlineFormatting() {
        assertShows("<strong>bold</strong> <em>it</em> <del>gone</del> <code>x*y`z</code> <b>b</b><i>i</i><s>s</s>",
                    ["bold{strong}", " ", "it{em}", " ", "gone{strike}", " ", "x*y`z{code}", " ", "b{strong}", "i{em}", "s{strike}"])
    }

    func testAdjacentSpansSurvive() {
        assertShows("<b>a</b><i>b</i>", ["a{strong}", "b{em}"])
        assertShows("<i>a</i><b>b</b>", ["a{em}", "b{strong}"])
        assertShows("<b>a</b><b>b</b>", ["ab{strong}"])
        assertShows("x<b>y</b>z", ["x", "y{strong}", "z"])
        assertShows("<b><i>both</i></b>", ["both{strong,em}"])
        assertShows("<b>bold <i>both</i></b> no", ["bold {strong}", "both{strong,em}", " no"])
        assertShows("<b>a </b>b", ["a{strong}", " b"])
        assertShows("<del>x</del><del>y</del> <span data-mx-spoiler>p</span><span data-mx-spoiler>q</span>",
                    ["xy{strike}", " ", "pq{spoiler1}"])
    }

    func testSpansOurMarkdownCannotWriteFallBackToTheirText() {
        // `a**\.b**` cannot open: the text stays exact, the bold goes, no stray `*` shows.
        assertShows("a<b>.b</b>c", ["a.bc"])
        assertShows("a<b>.b</b>c <a href=\"https://x.org\">link</a>", ["a.bc ", "link{link=https://x.org}"])
    }

    func testRubyReadsBackAsRuby() {
        // Our own shape, with the parentheses for clients that drop the tags.
        assertShows("<ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>を読む", ["漢字{ruby1=かんじ}", "を読む"])
        // HTML pairs each base with the reading after it; equal neighbours stay two annotations.
        assertShows("<ruby>漢<rt>かん</rt>字<rt>じ</rt></ruby>", ["漢{ruby1=かん}", "字{ruby2=じ}"])
        assertShows("<ruby>日<rt>ひ</rt></ruby><ruby>日<rt>ひ</rt></ruby>", ["日{ruby1=ひ}", "日{ruby2=ひ}"])
        // Formatting inside and around a base; markup characters in either part stay text.
        assertShows("<b><ruby>太<rt>ふと</rt></ruby>字</b> <ruby><i>a</i>b<rt>x|y}</rt></ruby>",
                    ["太{strong,ruby1=ふと}", "字{strong}", " ", "a{em,ruby2=x|y}}", "b{ruby2=x|y}}"])
        assertShows("<ruby>{a|b}<rt>r</rt></ruby>", ["{a|b}{ruby1=r}"])
        // A reading without a base, a base without a reading, a hostile reading.
        assertShows("<ruby> <rt>lone</rt></ruby>x", ["(lone)x"])
        assertShows("<ruby>base<rt> </rt></ruby>", ["base"])
        assertShows("<ruby>a<rt>\u{1B}[2J</rt></ruby>", ["a{ruby1=␛[2J}"])
        // Nested annotations: the inner reading stays as text inside the outer one.
        assertShows("<ruby>a<ruby>b<rt>in</rt></ruby><rt>out</rt></ruby>", ["ab(in){ruby1=out}"])
        // A base our Markdown cannot annotate (code) keeps its reading as text after it.
        assertShows("<ruby><code>x</code><rt>r</rt></ruby>", ["x{code}", "(r)"])
    }

    func testCodeSpansAndBlocks() {
        assertShows("<code>`tick`</code> <code> padded </code>", ["`tick`{code}", " ", " padded {code}"])
        let markdown = read("<pre><code class=\"language-swift\">let a = &quot;1&quot;\n```\n&lt;b&gt; *x*\n</code></pre><p>after</p>")
        XCTAssertEqual(Self.shown(markdown), ["let a = \"1\"\n```\n<b> *x*\n{code,pre:swift}", "\n", "after"])
        assertShows("<pre>\nplain\n  indented</pre>", ["plain\n  indented\n{code,pre:}"])
        // Code lines that start with `>` stay code, at any quote depth.
        assertShows("<pre><code>&gt; prompt\n  &gt;&gt; more\n</code></pre>", ["> prompt\n  >> more\n{code,pre:}"])
        assertShows("<blockquote><pre><code>&gt; in quote\n</code></pre></blockquote>", ["> in quote\n{code,pre:,q1}"])
    }

    func testLinks() {
        assertShows("<a href=\"https://example.com/a_(b) c\">the *docs*</a>", ["the *docs*{link=https://example.com/a_(b)%20c}"])
        assertShows("<a href=\"mailto:a@b.org\">mail</a> <a href=\"/relative\">rel</a>", ["mail{link=mailto:a@b.org}", " rel"])
        assertShows("<a href=\"https://x.org\"><b>bold</b> link</a>", ["bold{strong,link=https://x.org}", " link{link=https://x.org}"])
    }

    func testPillsBecomeMentionsOfKnownUsers() {
        assertShows("<a href=\"https://matrix.to/#/@alice:example.org\">Alice</a>: hi", ["@alice{mention=@alice:example.org}", ": hi"])
        assertShows("<a href=\"https://matrix.to/#/%40bob%3Aexample.org?via=example.org\">Bob</a>", ["@bob{mention=@bob:example.org}"])
        assertShows("<a href=\"https://matrix.to/#/@carol:example.org\">Carol *C*</a> hi", ["Carol *C* hi"])
        // After a letter an `@handle` is no mention: the pill's text shows instead.
        assertShows("x<a href=\"https://matrix.to/#/@alice:example.org\">Alice</a>", ["xAlice"])
    }

    func testSpoilersWithAndWithoutReason() {
        assertShows("a <span data-mx-spoiler>secret <b>bold</b></span>", ["a ", "secret {spoiler1}", "bold{strong,spoiler1}"])
        assertShows("<span data-mx-spoiler=\"plot\">twist</span> and <span data-mx-spoiler>more</span>",
                    ["(plot) ", "twist{spoiler1}", " and ", "more{spoiler2}"])
    }

    func testReplyFallbackIsDropped() {
        let html = "<mx-reply><blockquote><a href=\"https://matrix.to/#/!room:x/$event\">In reply to</a> "
            + "<a href=\"https://matrix.to/#/@bob:example.org\">@bob:example.org</a><br>original <b>text</b></blockquote></mx-reply>my answer"
        assertShows(html, ["my answer"])
    }

    func testListsAndQuotes() {
        assertShows("<ul>\n<li>one</li>\n<li><p>two</p><p>lines</p></li>\n</ul>\n<ol start=\"3\"><li>three</li><li>four</li></ol>",
                    ["one{li-}", "\n", "two\nlines{li-}", "\n", "three{li3.}", "\n", "four{li4.}"])
        assertShows("<blockquote><p>outer</p><blockquote><p>inner <em>x</em></p></blockquote><p>back</p></blockquote><p>after</p>",
                    ["outer{q1}", "\n", "inner {q2}", "x{em,q2}", "\n", "back{q1}", "\n", "after"])
        assertShows("<blockquote><ul><li>quoted item</li></ul></blockquote>", ["quoted item{li-,q1}"])
        assertShows("<ul><li>a<ul><li>nested</li></ul></li><li>b</li></ul>", ["a{li-}", "\n", "nested{li-}", "\n", "b{li-}"])
    }

    /// One quote of two paragraphs stays one quote; two quotes side by side stay two.
    func testQuotesKeepTheirBounds() {
        func quotes(_ html: String) -> String {
            HTMLRenderer.render(MarkupDocument(parsing: read(html), handles: { _ in nil }))
        }
        XCTAssertEqual(quotes("<blockquote><p>a</p><p>b</p></blockquote>"), "<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>\n")
        XCTAssertEqual(quotes("<blockquote><p>a</p></blockquote><blockquote><p>b</p></blockquote>"),
                       "<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n")
        XCTAssertEqual(quotes("<blockquote><blockquote><p>a</p></blockquote><blockquote><p>b</p></blockquote></blockquote>"),
                       "<blockquote>\n<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>\n</blockquote>\n")
    }

    func testEntitiesAndWhitespace() {
        assertShows("<p>a &amp; b &lt;c&gt; &quot;d&quot; &#x1F600; &eacute; &#233;&nbsp;x</p>", ["a & b <c> \"d\" 😀 é é\u{A0}x"])
        assertShows("<p>  a \n\t b  </p><p>c<br>\n  d<br><br>e<br></p>", ["a b", "\n", "c\nd\n\ne"])
        assertShows("<h1>Title</h1><p>text</p><hr><p>x</p>", ["Title{strong}", "\n", "text", "\n", "---", "\n", "x"])
        assertShows("<p>an <img src=\"mxc://x/y\" alt=\"*image*\"> and <img src=\"mxc://z\"></p><!-- gone -->",
                    ["an *image* and"])
        assertShows("<table><tr><th>h1</th><th>h2</th></tr><tr><td>a</td><td>b</td></tr></table>",
                    ["h1{strong}", " | ", "h2{strong}", "\n", "a | b"])
    }

    func testTextWithMarkdownSyntaxShowsLiterally() {
        let lines = ["# not heading", "- not list", "1. not list", "> not quote", "```", "*not em* _no_ @bob ||x|| ~~y~~ [z](w) `q` &amp; \\",
                     "www.example.com http://x.org a@b.org <b>", "    four spaces", "[a]: /url"]
        let html = lines.map { "<p>\(HTMLRenderer.escape($0))</p>" }.joined()
        let expected = lines.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { ["\n", $0] }.dropFirst()
        XCTAssertEqual(Self.shown(read(html)), Array(expected))
    }

    // MARK: Hostile input

    func testScriptsAndUnsafeLinks() {
        assertShows("<script>alert('<b>x</b>')</script>hi<style>p{}</style>", ["hi"])
        assertShows("<a href=\"javascript:alert(1)\">click</a> <a href=\" JAVASCRIPT:x\">b</a> <a href=\"java\nscript:y\">c</a>", ["click b c"])
        assertShows("<a href=\"data:text/html,<script>\">d</a><iframe src=x>in</iframe>", ["d"])
    }

    func testControlCharactersBecomeVisible() {
        assertShows("<a href=\"https://x.org/\u{1B}[31m\">t\u{1B}[2Jx\u{9B}y\u{202E}</a>", ["t␛[2Jx\u{FFFD}y\u{FFFD}{link=https://x.org/%1B[31m}"])
        assertShows("<pre><code class=\"language-\u{1B}x\">\u{7}bell</code></pre>", ["␇bell\n{code,pre:}"])
    }

    func testMalformedHTML() {
        assertShows("<b>unclosed <i>both", ["unclosed {strong}", "both{strong,em}"])
        assertShows("a < b > c </x> <3 <", ["a < b > c <3 <"])
        assertShows("<a href=x>un quoted</a> <b class=\"unterminated>lost", ["un quoted"])
        assertShows("</b>text<b", ["text"])
        assertShows("<span data-mx-spoiler><span data-mx-spoiler>nested</span></span> <a href=\"https://a.org\"><a href=\"https://b.org\">in</a></a>",
                    ["nested{spoiler1}", " ", "in{link=https://a.org}"])
        assertShows("<!-- never closed <b>x</b>", [])
        assertShows("<p>a<p>b<li>c", ["a", "\n", "b", "\n", "c{li-}"])
    }

    func testDeepNestingIsBounded() {
        let html = String(repeating: "<b>", count: 10_000) + "deep" + String(repeating: "</b>", count: 10_000) + " after"
        assertShows(html, ["deep{strong}", " after"])
        let quotes = String(repeating: "<blockquote>", count: 5_000) + "q"
        let shown = Self.shown(read(quotes))
        XCTAssertEqual(shown, ["q{q\(MatrixHTMLTree.maximumDepth)}"])
    }

    func testHugeInputIsCut() {
        let html = "<p>" + String(repeating: "a<b>b</b> ", count: 110_000)
        let start = Date()
        let markdown = read(html)
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
        let text = CommentMarkup.parseRuns(markdown, handles: { _ in nil }).text
        XCTAssertTrue(text.hasSuffix("\n…"))
        XCTAssertLessThanOrEqual(text.utf8.count, MatrixHTMLReader.maximumInputBytes)
    }

    func testRandomGarbageNeverLeaksTags() {
        let tokens = ["<", ">", "</", "/>", "b", "i", "a href=", "\"", "'", "=", "&", "amp;", "&#", "x", "60;", "--", "!", "<!--", "-->",
                      "code", "pre", "ul", "ol", "li", "blockquote", "span data-mx-spoiler", "mx-reply", "br", "p", "h1", "script",
                      "\n", " ", "*", "_", "`", "```", "|", "||", "~", "@", "@alice", "[", "]", "(", ")", "\\", "#", "-", "1.", "\u{1B}",
                      "\u{9B}", "\u{0}", "é", "https://matrix.to/#/@alice:example.org", "https://x.org", "javascript:", "\t"]
        var random = SeededRandom(seed: 0x4D41_5452_4958)
        for n in 0..<3_000 {
            let html = (0..<random.below(60)).map { _ in random.pick(tokens) }.joined()
            let markdown = read(html)
            let document = MarkupDocument(parsing: markdown, handles: Self.userID(for:))
            for block in document.blocks {
                for item in block.items {
                    if case .rawHTML(let raw) = item { XCTFail("case \(n): raw HTML \(raw) from \(html.debugDescription)") }
                }
            }
            for c in markdown.unicodeScalars where (c.value < 0x20 && c != "\n" && c != "\t") || (0x7F...0x9F).contains(c.value) {
                XCTFail("case \(n): control U+\(String(c.value, radix: 16)) from \(html.debugDescription)")
            }
            // Outside code, every `<` is escaped.
            if !markdown.contains("`") {
                let scalars = Array(markdown.unicodeScalars)
                for (k, c) in scalars.enumerated() where c == "<" && (k == 0 || scalars[k - 1] != "\\") {
                    XCTFail("case \(n): bare < in \(markdown.debugDescription)")
                }
            }
            _ = CommentMarkup.parse(markdown, handles: Self.userID(for:))
        }
    }

    // MARK: Plain bodies

    /// What our renderer shows for a plain body: lines without trailing blanks, blank lines gone
    /// (they separate paragraphs, which the text joins with one `\n`), controls made visible.
    private func expectedPlain(_ text: String) -> String {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let lines = unified.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var s = Substring(line)
            while let last = s.last, last == " " || last == "\t" { s.removeLast() }
            return String(s)
        }
        return VisibleControls.sanitize(lines.filter { !$0.isEmpty }.joined(separator: "\n"))
    }

    func testPlainTextShowsLiterally() {
        var random = SeededRandom(seed: 42)
        let pieces = ["#", "##", ">", "> ", "- ", "+ ", "* ", "1. ", "2) ", "```", "~~~", "@name", "@name.", "||x||", "~~x~~", "*a*",
                      "_b_", "[l](u)", "<b>", "&amp;", "&#10;", "\\", "\\\n", "\n", "\n\n", "\r\n", "\r", " ", "  ", "\t", "    ",
                      "word", "é", "😀", "\u{1B}", "www.x.org", "http://y.org", "a@b.org", "`", "|", "---"]
        let ascii = (0x21...0x7E).compactMap(Unicode.Scalar.init).map(String.init)
        for n in 0..<2_000 {
            let text = (0..<random.below(25)).map { _ in random.below(3) == 0 ? random.pick(ascii) : random.pick(pieces) }.joined()
            let markdown = MatrixHTMLReader.markdown(fromPlainText: text, isReply: false)
            let shown = CommentMarkup.parse(markdown, handles: Self.userID(for:))
            XCTAssertEqual(String(shown.characters), expectedPlain(text), "case \(n): \(text.debugDescription) → \(markdown.debugDescription)")
            for run in shown.runs {
                let a = run.attributes
                XCTAssertTrue(a[CommentAttributes.LinkAttribute.self] == nil && a[CommentAttributes.MentionAttribute.self] == nil
                              && a[CommentAttributes.StrongAttribute.self] == nil && a[CommentAttributes.EmphasisAttribute.self] == nil
                              && a[CommentAttributes.StrikethroughAttribute.self] == nil && a[CommentAttributes.SpoilerAttribute.self] == nil
                              && a[CommentAttributes.CodeAttribute.self] == nil, "case \(n): \(text.debugDescription)")
                if let block = a[CommentAttributes.BlockAttribute.self] {
                    XCTAssertEqual(block.role, .paragraph, "case \(n): \(text.debugDescription)")
                    XCTAssertEqual(block.quoteDepth, 0, "case \(n): \(text.debugDescription)")
                }
            }
        }
    }

    func testPlainTextKeepsIndentAndParagraphs() {
        let markdown = MatrixHTMLReader.markdown(fromPlainText: "  indented\n\tтаб\n\n\n# two", isReply: false)
        XCTAssertEqual(Self.shown(markdown), ["  indented\n\tтаб", "\n", "# two"])
    }

    func testPlainReplyFallbackIsDropped() {
        let body = "> <@bob:example.org> original\n> second line\n>\n\nmy answer\n> kept quote"
        XCTAssertEqual(Self.shown(MatrixHTMLReader.markdown(fromPlainText: body, isReply: true)), ["my answer\n> kept quote"])
        XCTAssertEqual(Self.shown(MatrixHTMLReader.markdown(fromPlainText: "no quote\n\nhere", isReply: true)), ["no quote", "\n", "here"])
        XCTAssertEqual(Self.shown(MatrixHTMLReader.markdown(fromPlainText: body, isReply: false)).first, "> <@bob:example.org> original\n> second line\n>")
    }
}
