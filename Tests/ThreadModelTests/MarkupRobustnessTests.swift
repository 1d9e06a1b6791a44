import Foundation
import XCTest
@testable import ThreadModel

/// The parser never traps, keeps the text it does not consume, and stays linear on hostile input.
final class MarkupRobustnessTests: XCTestCase {
    private func randomText(_ alphabet: [String], length: Int, _ rng: inout SeededRandom) -> String {
        (0..<length).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    func testRandomMarkupKeepsEveryLetterInOrder() {
        var rng = SeededRandom(seed: 0xC0FFEE)
        let alphabet = ["*", "_", "~", "|", "[", "]", "(", ")", "<", ">", "`", "@", "\\", "a", "b", " ", "x:", "\n"]
        for _ in 0..<3000 {
            let input = randomText(alphabet, length: Int.random(in: 0...40, using: &rng), &rng)
            // Anything may happen to it: it terminates without trapping.
            _ = CommentMarkup.parse(input, handles: { $0 == "a" ? "u1" : nil })
            // Without `(` (link destinations) and newlines (fence info strings), letters are text.
            let prose = "a" + input.filter { $0 != "(" && $0 != ")" && $0 != "\n" }
            let output = CommentMarkup.parse(prose, handles: { $0 == "a" ? "u1" : nil })
            // Letters are never markup: whatever the parser does, they all survive, in order.
            let letters = { (s: String) in s.filter { $0 == "a" || $0 == "b" || $0 == "x" } }
            XCTAssertEqual(letters(String(output.characters)), letters(prose), prose.debugDescription)
        }
    }

    func testRandomBlockAndEntityMarkupNeverTraps() {
        var rng = SeededRandom(seed: 7)
        let alphabet = ["*", "_", "~", "|", "[", "](", ")", "<", ">", "`", "```", "@a", "\\", "&", "&#x", "#", ";", "amp",
                        "www.", "http://", "x.y", "@", "\n", "\r", "\u{0}", "\u{202E}", "\u{200D}", "👩", "> ", "- ", "1. ", " ", "\"", "'"]
        for _ in 0..<3000 {
            let input = randomText(alphabet, length: Int.random(in: 0...60, using: &rng), &rng)
            let document = MarkupDocument(parsing: input, handles: { $0 == "a" ? "u1" : nil })
            let text = CommentMarkup.attributedString(for: document)
            XCTAssertFalse(HTMLRenderer.render(document).unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{0}" }, input.debugDescription)
            XCTAssertFalse(text.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{0}" || $0 == "\r" }, input.debugDescription)
            XCTAssertTrue(RunsJSON.encode(text).hasPrefix("["))
        }
    }

    func testRandomEmphasisOnlyConsumesDelimiters() {
        var rng = SeededRandom(seed: 42)
        let alphabet = ["*", "_", "~~", "||", "a", "b", " "]
        for _ in 0..<3000 {
            // Starts with a letter so that no line opens a list item or a code fence.
            let input = "a" + randomText(alphabet, length: Int.random(in: 1...30, using: &rng), &rng)
                .trimmingCharacters(in: .whitespaces)
            let output = String(CommentMarkup.parse(input, handles: { _ in nil }).characters)
            let markup: Set<Character> = ["*", "_", "~", "|"]
            // Output is the input with some delimiter characters removed, nothing else.
            XCTAssertEqual(output.filter { !markup.contains($0) }, input.filter { !markup.contains($0) }, input.debugDescription)
            XCTAssertLessThanOrEqual(output.count, input.count)
            var rest = Substring(output)
            for c in input where rest.first == c { rest = rest.dropFirst() }
            XCTAssertTrue(rest.isEmpty, "output is not a subsequence of \(input.debugDescription)")
        }
    }
}
