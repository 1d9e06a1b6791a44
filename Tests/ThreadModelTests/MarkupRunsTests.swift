import Foundation
import XCTest
@testable import ThreadModel

/// The parser's output, `MarkupRuns` of `MarkupStyle`s, against the `AttributedString` made of
/// the same runs: the two must say the same, run for run, for every kind of text.
final class MarkupRunsTests: XCTestCase {
    private let users = [User(id: "u1", handle: "x", name: "X"), User(id: "u2", handle: "mateo", name: "Mateo")]
    private var handles: (String) -> String? {
        let ids = Dictionary(uniqueKeysWithValues: users.map { ($0.handle, $0.id) })
        return { ids[$0.lowercased()] }
    }

    /// Bodies as the generator writes them, the pathological inputs, and hostile and block-rich text.
    private func bodies() -> [String] {
        var random = SeededRandom(seed: 35)
        var bodies = (0..<400).map { _ in GeneratorText.commentBody(&random, users: users, author: users[0]) }
        bodies += PathologicalInputs.all(40).map(\.text)
        bodies += [
            "# Title\n\n> quoted **bold** @mateo\n> > deeper ||secret||\n\n- one ~~gone~~\n- two {漢字|かんじ}\n\n```swift\nlet x = 1\n```",
            "a\u{1B}[31mred\u{7}\u{202E}evil\u{200D}x [link](https://example.com/\u{1B}) `code\u{0}`",
            "1. first\n2) second\n\n***\n\n&amp; &#x1F600; \\*not\\* www.example.com x@y.org",
            "\r\nCR\rLF\r\n\ttab  \nbreak\\\nhard",
            "",
        ]
        return bodies
    }

    func testRunsAgreeWithTheAttributedStringRunForRun() {
        for body in bodies() {
            let runs = CommentMarkup.parseRuns(body, handles: handles)
            runs._checkInvariants()
            let attributed = MarkupRuns(CommentMarkup.parse(body, handles: handles))
            XCTAssertEqual(runs.text, attributed.text, body.debugDescription)
            XCTAssertEqual(runs.runs, attributed.runs, body.debugDescription)
        }
    }

    func testAStyleSurvivesTheTripThroughAttributes() {
        var styles = Set<MarkupStyle>()
        for body in bodies() { styles.formUnion(CommentMarkup.parseRuns(body, handles: handles).runs.map(\.style)) }
        // Every attribute of the scope is met somewhere in the bodies.
        XCTAssertTrue(styles.contains { $0.emphasis })
        XCTAssertTrue(styles.contains { $0.strong })
        XCTAssertTrue(styles.contains { $0.strikethrough })
        XCTAssertTrue(styles.contains { $0.code })
        XCTAssertTrue(styles.contains { $0.link != nil })
        XCTAssertTrue(styles.contains { $0.mention == "u2" })
        XCTAssertTrue(styles.contains { $0.spoiler != nil })
        XCTAssertTrue(styles.contains { $0.ruby?.reading == "かんじ" })
        XCTAssertTrue(styles.contains { $0.block?.quoteDepth == 2 })
        XCTAssertTrue(styles.contains { $0.block == nil })
        for style in styles { XCTAssertEqual(MarkupStyle(style.attributes), style) }
    }

    func testHostileScalarsNeverReachTheRunsText() {
        let runs = CommentMarkup.parseRuns("a\u{1B}[31m\u{7}\u{202E}b\u{9B}c [l](x&#x1B;y)", handles: handles)
        XCTAssertEqual(runs.text, "a\u{241B}[31m\u{2407}\u{FFFD}b\u{FFFD}c l")
        XCTAssertEqual(runs.runs.last?.style.link, "x\u{241B}y")
    }

    func testAnEmptyBodyHasNoRuns() {
        let runs = CommentMarkup.parseRuns("", handles: handles)
        XCTAssertEqual(runs.text, "")
        XCTAssertEqual(runs.runs, [])
        runs._checkInvariants()
    }
}
