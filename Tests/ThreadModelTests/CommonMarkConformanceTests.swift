import Foundation
import XCTest
@testable import ThreadModel

/// Renders the single-paragraph examples of CommonMark 0.31.2's inline sections and GFM 0.29's
/// strikethrough and autolink extensions as HTML and compares with the spec's HTML; and the
/// block examples within what comment blocks cover, each by number.
final class CommonMarkConformanceTests: XCTestCase {
    struct Example: Decodable {
        var markdown: String
        var html: String
        var example: Int
        var section: String
    }

    static let inlineSections = [
        "Backslash escapes", "Entity and numeric character references", "Code spans",
        "Emphasis and strong emphasis", "Links", "Autolinks", "Raw HTML", "Hard line breaks",
        "Soft line breaks", "Textual content",
    ]
    static let extensionSections = ["Strikethrough (extension)", "Autolinks (extension)"]

    /// What we pass today; raising it is progress, dropping below it is a regression. The six
    /// misses are deliberate deviations (docs/Manual.md, "Comment markup"): no images (3 Links examples),
    /// GFM extended autolinks on in the CommonMark Autolinks section too (3).
    static let floor = [
        "Backslash escapes": 9, "Entity and numeric character references": 13, "Code spans": 22,
        "Emphasis and strong emphasis": 132, "Links": 87, "Autolinks": 16, "Raw HTML": 20,
        "Hard line breaks": 13, "Soft line breaks": 2, "Textual content": 3,
        "Strikethrough (extension)": 2, "Autolinks (extension)": 11,
    ]

    func testInlineSectionsMatchTheSpec() throws {
        let common = try load("commonmark-0.31.2")
        let gfm = try load("gfm-0.29-extensions")
        var report: [String] = []
        var failures: [String] = []
        for section in Self.inlineSections + Self.extensionSections {
            let examples = (common + gfm).filter { $0.section == section && Self.isParagraphsOnly($0.html) }
            var passed = 0
            for example in examples {
                // Raw HTML is recognised as the spec says and kept as text; the comparison passes
                // it through so the rest of the example is still checked exactly.
                let document = MarkupDocument(parsing: example.markdown, handles: { _ in nil })
                let actual = HTMLRenderer.render(document, rawHTMLVerbatim: true)
                let expected = Self.chatLineBreaks(example.html)
                if actual == expected {
                    passed += 1
                } else {
                    failures.append("#\(example.example) \(example.markdown.debugDescription)\n  expected \(expected.debugDescription)\n  actual   \(actual.debugDescription)")
                }
            }
            report.append("\(section): \(passed)/\(examples.count)")
            XCTAssertGreaterThanOrEqual(passed, Self.floor[section] ?? 0, section)
        }
        print("CommonMark/GFM inline conformance:\n  " + report.joined(separator: "\n  "))
        if ProcessInfo.processInfo.environment["MARKUP_FAILURES"] != nil {
            print(failures.joined(separator: "\n"))
        }
    }

    /// Block examples within what comment blocks cover (fences, quotes, simple lists, ATX
    /// headings), each of which must match the spec's HTML exactly.
    static let blockExamples = [
        // Backslash escapes and entities in a fence's info string.
        24, 34,
        // ATX headings (not: indented code, thematic breaks, soft breaks).
        62, 63, 64, 65, 66, 67, 68, 71, 72, 73, 74, 75, 76, 78, 79,
        // Fenced code blocks: a `>` inside is code; an unclosed fence adds no line.
        119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 135, 136, 137,
        139, 140, 142, 143, 144, 146, 147,
        // A definition in a quote leaves the quote; blank lines (also quoted ones).
        214, 218, 227,
        // Block quotes: empty ones, and two split by a blank line stay two.
        235, 237, 239, 240, 241, 242, 244, 245, 248, 249,
        // List items: one that starts with a blank line takes the next line.
        255, 260, 261, 279, 280, 281, 282, 283, 284,
    ]

    func testBlockExamplesMatchTheSpec() throws {
        let examples = try load("commonmark-0.31.2")
        for number in Self.blockExamples {
            let example = try XCTUnwrap(examples.first { $0.example == number })
            let document = MarkupDocument(parsing: example.markdown, handles: { _ in nil })
            XCTAssertEqual(HTMLRenderer.render(document, rawHTMLVerbatim: true), example.html,
                           "#\(number) \(example.section): \(example.markdown.debugDescription)")
        }
    }

    /// Examples whose expected HTML is only paragraphs (what a single inline run produces).
    static func isParagraphsOnly(_ html: String) -> Bool {
        guard html.hasPrefix("<p>") else { return false }
        return !["<ul", "<ol", "<blockquote", "<pre", "<h1", "<h2", "<hr", "<li"].contains { html.contains($0) }
    }

    /// In comments a newline is a line break (as on GitHub), where CommonMark has a soft break.
    static func chatLineBreaks(_ html: String) -> String {
        var out = ""
        for (n, line) in html.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if n > 0 {
                if !(out.hasSuffix("</p>") || out.hasSuffix("<br />")) { out += "<br />" }
                out += "\n"
            }
            out += line
        }
        return out
    }

    private func load(_ name: String) throws -> [Example] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Data"))
        return try JSONDecoder().decode([Example].self, from: Data(contentsOf: url))
    }
}
