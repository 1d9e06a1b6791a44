import Foundation
import XCTest
@testable import ThreadModel

/// `CommentMarkup.escapingSpoilersAndRuby`: GitHub text that our `||spoiler||` and `{ruby|reading}`
/// syntax would change shows here as it does on GitHub.
///
/// Each case is checked by parsing: the escaped text makes no spoiler or annotation, shows the
/// text and attributes the original shows with `||`, `{`, `|`, `}` read as plain text (as on
/// GitHub), and differs from the original only by backslashes before such characters.
final class SpoilerAndRubyEscapeTests: XCTestCase {
    /// `@a` is a known user, so mentions are part of what must survive.
    private let handles: (String) -> String? = { $0 == "a" ? "u1" : nil }

    private func runs(_ markdown: String, extensions: ExtensionSyntax = .markup) -> MarkupRuns {
        MarkupRuns(CommentMarkup.attributedString(for: MarkupDocument(parsing: markdown, handles: handles, extensions: extensions)))
    }

    /// Escapes `original` and checks the three properties; returns the escaped text.
    @discardableResult
    private func escapedChecked(_ original: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let escaped = CommentMarkup.escapingSpoilersAndRuby(original)
        let label = "\(original.debugDescription) → \(escaped.debugDescription)"
        // 1. Nothing forms.
        let parsed = CommentMarkup.parseRuns(escaped, handles: handles)
        XCTAssertFalse(parsed.runs.contains {
            $0.style.spoiler != nil || $0.style.ruby != nil
        }, label, file: file, line: line)
        // 2. It shows what the original shows when the syntax is text.
        let shown = runs(escaped)
        let asText = runs(original, extensions: .text)
        XCTAssertEqual(shown.text, asText.text, label, file: file, line: line)
        XCTAssertEqual(shown.runs.map(\.end), asText.runs.map(\.end), label, file: file, line: line)
        XCTAssertTrue(zip(shown.runs, asText.runs).allSatisfy { $0.style == $1.style }, label, file: file, line: line)
        // 3. Only backslashes were added, each before `{`, `|` or `}`.
        var rest = Substring(original).unicodeScalars
        var afterAddedBackslash = false
        for c in escaped.unicodeScalars {
            if afterAddedBackslash {
                XCTAssertTrue(c == "{" || c == "|" || c == "}", label, file: file, line: line)
            }
            afterAddedBackslash = c != rest.first
            if afterAddedBackslash {
                XCTAssertEqual(c, "\\", label, file: file, line: line)
            } else {
                rest.removeFirst()
            }
        }
        XCTAssertTrue(rest.isEmpty, label, file: file, line: line)
        return escaped
    }

    func testSpoilersBecomeText() {
        XCTAssertEqual(escapedChecked("||x||"), "\\|\\|x\\|\\|")
        XCTAssertEqual(escapedChecked("a ||b|| c ||d||"), "a \\|\\|b\\|\\| c \\|\\|d\\|\\|")
        XCTAssertEqual(escapedChecked("|| the butler did it ||"), "\\|\\| the butler did it \\|\\|")
        XCTAssertEqual(escapedChecked("||the **end**||"), "\\|\\|the **end**\\|\\|", "formatting inside stays")
    }

    func testBarsThatMakeNoSpoilerStayByteForByte() {
        for text in ["a || b || c", "a || b", "x|||y|||", "a | b | c", "no markup at all", "", "ruby: {a}, {|b}, {a|}, a|b}"] {
            XCTAssertEqual(escapedChecked(text), text)
        }
    }

    func testRubyBecomesText() {
        XCTAssertEqual(escapedChecked("{漢字|かんじ}"), "\\{漢字\\|かんじ\\}")
        XCTAssertEqual(escapedChecked("pick {a|b} or { a | b }"), "pick \\{a\\|b\\} or \\{ a \\| b \\}")
        XCTAssertEqual(escapedChecked("{**漢**字|かんじ} and {@a|x}"), "\\{**漢**字\\|かんじ\\} and \\{@a\\|x\\}")
    }

    func testCodeAutolinksRawHTMLAndDestinationsAreUntouched() {
        for text in ["`{a|b}` and ``||x||``", "```\n{a|b} ||x||\n```", "~~~\n||x||\n~~~\n", "[x]({a|b})", "[x](<||y||>)",
                     "<https://x.example/{a|b}>", "https://x.example/{a|b}||c||", "<span title=\"{a|b}\">", "<!-- ||x|| -->",
                     "\\{a|b} and \\||x||"] {
            XCTAssertEqual(escapedChecked(text), text)
        }
        XCTAssertEqual(escapedChecked("`{a|b}` {a|b}"), "`{a|b}` \\{a\\|b\\}")
        XCTAssertEqual(escapedChecked("```\n{a|b}\n```\n{a|b}"), "```\n{a|b}\n```\n\\{a\\|b\\}")
    }

    func testInLinkText() {
        XCTAssertEqual(escapedChecked("[{漢字|かんじ}](https://x.example)"), "[\\{漢字\\|かんじ\\}](https://x.example)")
        XCTAssertEqual(escapedChecked("[||x||](https://x.example/a|b)"), "[\\|\\|x\\|\\|](https://x.example/a|b)")
    }

    /// What the braces hid is GitHub's raw HTML or autolink: the `|` and `}` there keep no
    /// backslash (it would show), and the escaped `{` alone undoes the annotation.
    func testBracesAroundRawHTMLOrAnAutolinkEscapeOnlyTheBrace() {
        XCTAssertEqual(escapedChecked("{<a title=x|y>}"), "\\{<a title=x|y>\\}")
        XCTAssertEqual(escapedChecked("{ www.example.com|b}"), "\\{ www.example.com|b}")
        XCTAssertEqual(escapedChecked("{ www.example.com|b}||x||"), "\\{ www.example.com|b}||x||", "the link takes the bars too")
    }

    func testNestedAndAdjacent() {
        XCTAssertEqual(escapedChecked("{{漢|か}|x}"), "\\{\\{漢\\|か\\}\\|x\\}", "the outer pair forms once the inner is gone")
        XCTAssertEqual(escapedChecked("{日|ひ}{日|ひ}"), "\\{日\\|ひ\\}\\{日\\|ひ\\}")
        XCTAssertEqual(escapedChecked("||a|| ||{b|c}||"), "\\|\\|a\\|\\| \\|\\|\\{b\\|c\\}\\|\\|")
        XCTAssertEqual(escapedChecked("{x{a|b}|c}"), "\\{x\\{a\\|b\\}\\|c\\}")
        escapedChecked("{a|b}}} {{{a|b}")
        escapedChecked("||{a||b|c}||")
    }

    func testAnEscapeAlreadyThereStays() {
        XCTAssertEqual(escapedChecked("\\{a|b}"), "\\{a|b}")
        XCTAssertEqual(escapedChecked("\\\\{a|b}"), "\\\\\\{a\\|b\\}", "an escaped backslash escapes nothing after it")
        XCTAssertEqual(escapedChecked("{a\\|b|c}"), "\\{a\\|b\\|c\\}")
    }

    func testCRLFLinesQuotesListsAndHeadings() {
        XCTAssertEqual(escapedChecked("a\r\n{a|b}\r\n||x||\rz"), "a\r\n\\{a\\|b\\}\r\n\\|\\|x\\|\\|\rz")
        XCTAssertEqual(escapedChecked("> {a|b}\n> > ||x||"), "> \\{a\\|b\\}\n> > \\|\\|x\\|\\|")
        XCTAssertEqual(escapedChecked("- ||x||\n-   {a|b}\n10. {a|b}\n-\n  ||y||"),
                       "- \\|\\|x\\|\\|\n-   \\{a\\|b\\}\n10. \\{a\\|b\\}\n-\n  \\|\\|y\\|\\|")
        XCTAssertEqual(escapedChecked("## {a|b} ##\n   para ||x||\nlazy {a|b}"), "## \\{a\\|b\\} ##\n   para \\|\\|x\\|\\|\nlazy \\{a\\|b\\}")
        XCTAssertEqual(escapedChecked("[r]: /u\n||x|| [r]"), "[r]: /u\n\\|\\|x\\|\\| [r]", "after a definition")
    }

    /// Our parser lets a spoiler's bars hide emphasis; GitHub does not, so neither does the result.
    func testWhatTheExtensionsHidFollowsGitHub() {
        XCTAssertEqual(escapedChecked("||a *b|| c*"), "\\|\\|a *b\\|\\| c*")
        XCTAssertEqual(runs("\\|\\|a *b\\|\\| c*").text, "||a b|| c")
    }

    /// Built to defeat a round at a time: past the bound, every `{` and `|` read as text is escaped.
    func testDeepNestingEndsEscaped() {
        let depth = 200
        let text = String(repeating: "{x", count: depth) + "{a|b}" + String(repeating: "|c}", count: depth)
        escapedChecked(text)
    }

    /// (How long they take is `WallClockTests`' to check.)
    func testLongPathologicalInputs() {
        let text = String(repeating: "{a|b ||", count: 50_000)
        let escaped = escapedChecked(text)
        XCTAssertEqual(escaped.unicodeScalars.count, text.unicodeScalars.count + 4, "one spoiler forms, at the end")
        for input in PathologicalInputs.all(2_000) {
            escapedChecked(input.text)
        }
    }

    func testRandomTextKeepsItsMeaning() {
        var rng = SeededRandom(seed: 0x617B_1E55)
        // The extensions' own characters and a few ready-made pieces of them come up more often,
        // so that about a quarter of the texts make a spoiler or an annotation.
        let alphabet = ["{", "}", "|", "\\", "`", "*", "_", "[", "]", "(", ")", "<", ">", "@", "a", "漢", "\n", "> ", "- ", " ", "\r\n",
                        "{", "}", "|", "||", "||", "a", "漢", "a", "{a|", "漢}"]
        for _ in 0..<5000 {
            let length = rng.below(41)
            let text = (0..<length).map { _ in rng.pick(alphabet) }.joined()
            escapedChecked(text)
        }
    }
}
