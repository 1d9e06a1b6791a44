import Foundation
import XCTest
@testable import ThreadModel

/// Outgoing Matrix content from our Markdown, and the round trip back through the HTML reader.
final class MatrixMessageContentTests: XCTestCase {
    private let names = ["@alice:example.org": "Alice A.", "@bob:example.org": "Bob <B> & \"Co\""]

    private func content(_ markdown: String, replyTo: String? = nil) -> MatrixMessageContent {
        MatrixMessageContent(markdown: markdown, handles: MatrixHTMLReaderTests.userID(for:),
                             displayName: { self.names[$0] }, replyTo: replyTo)
    }

    func testPlainTextHasNoFormattedBody() {
        for text in ["hello world", "line one\nline two", "para one\n\npara two", "a < b > c", "@nobody here", ""] {
            let json = content(text).json
            XCTAssertEqual(json["msgtype"] as? String, "m.text")
            XCTAssertEqual(json["body"] as? String, text)
            XCTAssertNil(json["format"], text)
            XCTAssertNil(json["formatted_body"], text)
            XCTAssertEqual((json["m.mentions"] as? [String: Any])?.isEmpty, true, text)
            XCTAssertNil(json["m.relates_to"])
        }
    }

    func testFormattingGivesHTML() {
        let json = content("**bold** *it* ~~gone~~ `x<y` [site](https://x.org/?a=1&b=2)").json
        XCTAssertEqual(json["format"] as? String, "org.matrix.custom.html")
        XCTAssertEqual(json["formatted_body"] as? String,
                       "<p><strong>bold</strong> <em>it</em> <del>gone</del> <code>x&lt;y</code> <a href=\"https://x.org/?a=1&amp;b=2\">site</a></p>")
    }

    func testThePlainBodyHasNoEscapesAndNoHandlesOfOurs() {
        // What the escapes and entities stand for is what a plain reader sees: no HTML needed.
        let escaped = content("a \\*b\\* &amp; \"c\" \\@alice")
        XCTAssertEqual(escaped.body, "a *b* & \"c\" @alice")
        XCTAssertNil(escaped.formattedBody)
        // A handle is ours alone: the body names the user, by display name else Matrix id.
        let mentions = MatrixMessageContent(markdown: "ask @alice and @bob **now**", handles: MatrixHTMLReaderTests.userID(for:),
                                            displayName: { $0 == "@alice:example.org" ? "Alice A." : $0 })
        XCTAssertEqual(mentions.body, "ask Alice A. and @bob:example.org **now**")
        XCTAssertEqual(content("> quote\n> > deeper\n\n- a\n- b [x](https://x.org) <https://y.org>\n\n```\ncode\n```").body,
                       "> quote\n>\n> > deeper\n\n- a\n- b x (https://x.org) https://y.org\n\n```\ncode\n```")
    }

    func testAReplyMentionsTheRepliedToSenderNotWhomItsQuoteNames() {
        let reply = MatrixMessageContent(markdown: "> @bob said so\n\n@alice sure", handles: MatrixHTMLReaderTests.userID(for:),
                                         displayName: { self.names[$0] }, replyTo: "$e", replyToSender: "@carol:example.org")
        XCTAssertEqual(reply.userIDsMentioned, ["@alice:example.org", "@carol:example.org"])
        XCTAssertEqual(reply.body, "> Bob <B> & \"Co\" said so\n\nAlice A. sure")
        // Not a reply: a quote's mention is a mention.
        XCTAssertEqual(content("> @bob said so").userIDsMentioned, ["@bob:example.org"])
    }

    func testControlsAndTagsInFormattedTextAreEscapedInTheHTML() {
        XCTAssertEqual(content("**\u{1B}[31m** <script>").formattedBody, "<p><strong>␛[31m</strong> &lt;script&gt;</p>")
    }

    func testBlocks() {
        XCTAssertEqual(content("> quote\n> > deeper\n\n- a\n- b\n\n3. c\n3. d\n\n```swift\nlet x = 1 < 2\n```").formattedBody,
                       "<blockquote><p>quote</p><blockquote><p>deeper</p></blockquote></blockquote><ul><li>a</li><li>b</li></ul>"
                       + "<ol start=\"3\"><li>c</li><li value=\"3\">d</li></ol><pre><code class=\"language-swift\">let x = 1 &lt; 2\n</code></pre>")
    }

    func testMentionsAndSpoilers() {
        let c = content("hi @bob and @alice, ||secret|| @bob @carol")
        XCTAssertEqual(c.userIDsMentioned, ["@alice:example.org", "@bob:example.org"])
        XCTAssertEqual(c.formattedBody, "<p>hi <a href=\"https://matrix.to/#/@bob:example.org\">Bob &lt;B&gt; &amp; &quot;Co&quot;</a> and "
                       + "<a href=\"https://matrix.to/#/@alice:example.org\">Alice A.</a>, <span data-mx-spoiler>secret</span> "
                       + "<a href=\"https://matrix.to/#/@bob:example.org\">Bob &lt;B&gt; &amp; &quot;Co&quot;</a> @carol</p>")
        let mentions = c.json["m.mentions"] as? [String: Any]
        XCTAssertEqual(mentions?["user_ids"] as? [String], ["@alice:example.org", "@bob:example.org"])
        // A user without a display name is named by handle.
        XCTAssertEqual(MatrixMessageContent(markdown: "@alice", handles: MatrixHTMLReaderTests.userID(for:), displayName: { _ in nil }).formattedBody,
                       "<p><a href=\"https://matrix.to/#/@alice:example.org\">@alice</a></p>")
    }

    func testReply() {
        let json = content("sure", replyTo: "$event:example.org").json
        let relates = json["m.relates_to"] as? [String: Any]
        XCTAssertEqual((relates?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String, "$event:example.org")
        XCTAssertNil(json["formatted_body"])
    }

    func testUnsafeLinksGoOutAsText() {
        XCTAssertEqual(content("[x](javascript:alert(1)) [y](https://y.org)").formattedBody, "<p>x <a href=\"https://y.org\">y</a></p>")
    }

    func testJSONSerializes() throws {
        let data = try JSONSerialization.data(withJSONObject: content("**a** @alice", replyTo: "$e").json, options: [.sortedKeys])
        XCTAssertEqual(String(decoding: data, as: UTF8.self),
                       #"{"body":"**a** Alice A.","format":"org.matrix.custom.html","formatted_body":"<p><strong>a<\/strong> <a href=\"https:\/\/matrix.to\/#\/@alice:example.org\">Alice A.<\/a><\/p>","m.mentions":{"user_ids":["@alice:example.org"]},"m.relates_to":{"m.in_reply_to":{"event_id":"$e"}},"msgtype":"m.text"}"#)
        let empty = try JSONSerialization.data(withJSONObject: content("plain").json, options: [.sortedKeys])
        XCTAssertEqual(String(decoding: empty, as: UTF8.self), #"{"body":"plain","m.mentions":{},"msgtype":"m.text"}"#)
    }

    /// Our Markdown → formatted_body (or body) → MatrixHTMLReader → our parser shows what the
    /// original shows.
    func testRoundTripKeepsRuns() {
        let comments = [
            "Hello **world**, *this* is ~~old~~ `code` and ``a`b``.",
            "A [link](https://example.com/path?q=1&r=(2)) and <https://x.org> and www.swift.org.",
            "Hey @alice, see ||the twist|| and ||**bold** inside|| please @bob",
            "> quoted *text*\n> > deeper\n> back\n\nafter",
            "- one\n- two **2**\n\n1. a\n2. b\n\n- other list",
            "3. three\n4. four\n\n1. x\n1. y\n1. z",
            "```swift\nlet x = \"<b>\" // `tick`\n  indented\n\n```\ntext after",
            "line one\nline two\n\npara two",
            "***both*** and **bold *nested* bold** and *em **strong** em*",
            "a \\*not em\\* &amp; b &lt;i&gt; \\@alice",
            "> - quoted item\n> - second\n\n> ```\n> code in quote\n> ```",
            "[**bold link**](https://b.org) then `code with  two spaces`",
            "x_y_z snake_case 2*3*4 a**b**c",
            "émoji 😀 and CJK 漢字 **太字**",
            "{漢字|かんじ}を{日|ひ}{日|ひ} **{太|ふと}字** ||{秘密|ひみつ}|| {*a* b|x \\| y} [{リンク|りんく}](https://x.org)",
        ]
        for markdown in comments {
            let c = content(markdown)
            // A comment without formatting goes as its plain body alone, and comes back through it.
            let html = c.formattedBody ?? ""
            let back = c.formattedBody.map { MatrixHTMLReader.markdown(fromHTML: $0, handleForUserID: MatrixHTMLReaderTests.handle(for:)) }
                ?? MatrixHTMLReader.markdown(fromPlainText: c.body, isReply: false)
            XCTAssertEqual(MatrixHTMLReaderTests.describe(CommentMarkup.parse(back, handles: MatrixHTMLReaderTests.userID(for:))),
                           MatrixHTMLReaderTests.describe(CommentMarkup.parse(markdown, handles: MatrixHTMLReaderTests.userID(for:))),
                           "\(markdown)\nHTML: \(html)\nback: \(back)")
            // Blocks too: roles, numbers, lists and positions.
            XCTAssertEqual(blocks(back), blocks(markdown), markdown)
        }
    }

    private func blocks(_ markdown: String) -> [MarkupBlock] {
        MarkupDocument(parsing: markdown, handles: MatrixHTMLReaderTests.userID(for:)).blocks.map(\.block)
    }
}
