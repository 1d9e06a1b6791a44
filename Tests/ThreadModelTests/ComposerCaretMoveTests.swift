import Foundation
import XCTest
@testable import ThreadModel

/// Moves counted from the caret (Up, Down, a click, a mention's insertion; issue 36): they land
/// where the same move counted from the draft's start lands, and each stretch of text they
/// cross is segmented into Characters once, not once a step.
final class ComposerCaretMoveTests: XCTestCase {
    /// The UTF-8 bytes `body` segmented into Characters.
    func segmented(_ body: () -> Void) -> Int {
        let before = ComposerWholeReads.segmentedBytes
        body()
        return ComposerWholeReads.segmentedBytes - before
    }

    /// A 0.5 and a 1 MB line with no sure break in it (no two neighbouring scalars that no
    /// grapheme rule joins): a move of 30 Characters segments the line about twice (once
    /// back, once forward), not 30 times; whether there is text to send segments nothing.
    func testAMoveInALongLineOfAccentsOrEmojiSegmentsItOnce() {
        for character in ["é", "👍🏽"] {
            for megabytes in [0.5, 1.0] {
                let count = Int(megabytes * 1_000_000) / character.utf8.count
                let line = String(repeating: character, count: count)
                var doc = ComposerDocument(text: line)
                XCTAssertEqual(segmented { XCTAssertTrue(doc.hasVisibleText) }, 0, "\(character) \(megabytes) MB: the scalar before the caret is enough")
                let work = segmented {
                    doc.placeCaret(charactersFromCaret: -20)
                    doc.placeCaret(charactersFromCaret: 10)
                }
                XCTAssertLessThanOrEqual(work, 2 * line.utf8.count + 64, "\(character) \(megabytes) MB: each stretch segmented once")
                XCTAssertEqual(doc.cursorOffset, count - 10)
            }
        }
    }

    func testAMoveInALongLineOfAccentedLatinGreekOrCyrillicSegmentsOnlyWhatItCrosses() {
        for character in ["é", "ő", "λ", "ж"] {
            let line = String(repeating: character, count: 500_000)
            var doc = ComposerDocument(text: line)
            let work = segmented {
                doc.placeCaret(charactersFromCaret: -20)
                doc.placeCaret(charactersFromCaret: 10)
            }
            XCTAssertLessThanOrEqual(work, 256, "\(character): a sure break between every two letters")
            XCTAssertEqual(doc.cursorOffset, 500_000 - 10)
        }
        // A combining mark still joins the letter before it.
        var doc = ComposerDocument(text: "жé\u{301}ж")
        doc.placeCaret(charactersFromCaret: -1)
        doc.placeCaret(charactersFromCaret: -1)
        XCTAssertEqual(doc.cursorOffset, 1, "é and its mark are one character")
    }

    /// Pieces whose Characters are more than one scalar, or wide, or mentions side by side.
    static let pieces: [String] = [
        "a", " ", "\n", "é", "e\u{301}\u{308}", "👩\u{200D}💻", "👨\u{200D}👩\u{200D}👧", "🇫🇷", "🇺🇸🇫🇷", "👍🏽",
        "漢字", "かな", "한국", "\u{1100}\u{1161}\u{11A8}", "x y", "❤\u{FE0F}",
    ]

    /// A draft of random pieces and mentions (some side by side, some of one user), with a
    /// selection, after an edit and its undo when `undone`.
    static func randomDraft(_ random: inout SeededRandom, undone: Bool) -> ComposerDocument {
        var doc = ComposerDocument()
        for _ in 0..<(4 + random.below(10)) {
            switch random.below(5) {
            case 0:
                var mentions = AttributedString()
                for _ in 0...random.below(2) {
                    let user = "u\(random.below(2))"
                    mentions.append(AttributedString("@\(random.pick(["ann", "bo", "ce\u{301}"]))", attributes: doc.formatting.attributes(formats: [], mention: user)))
                }
                doc.insert(mentions)
            default:
                doc.insert(random.pick(Self.pieces))
            }
        }
        if undone {
            let count = doc.string.count
            doc.select(random.below(count + 1)..<count)
            doc.insert(random.pick(Self.pieces))
            doc.undo()
        }
        let count = doc.string.count
        let a = random.below(count + 1), b = random.below(count + 1)
        doc.select(min(a, b)..<max(a, b), caretAtStart: random.below(2) == 0)
        return doc
    }

    func testAMoveFromTheCaretLandsWhereTheSameMoveFromTheStartDoes() throws {
        var random = SeededRandom(seed: 36)
        for round in 0..<60 {
            let doc = Self.randomDraft(&random, undone: round % 2 == 1)
            try doc._checkInvariants()
            let count = doc.string.count, caret = doc.cursorOffset
            for target in 0...count {
                var fromCaret = doc, fromStart = doc
                fromCaret.placeCaret(charactersFromCaret: target - caret)
                fromStart.placeCaret(nearest: target)
                let scalars = doc.string.unicodeScalars.map { String($0.value, radix: 16) }
                XCTAssertEqual(fromCaret.selection, fromStart.selection, "round \(round), caret \(caret) to \(target) in \(scalars)")
                XCTAssertEqual(fromCaret.cursorOffset, fromStart.cursorOffset)
            }
            // Past either end: clamped to it.
            var past = doc
            past.placeCaret(charactersFromCaret: count + 5)
            XCTAssertEqual(past.cursorOffset, count)
            past.placeCaret(charactersFromCaret: -(count + 5))
            XCTAssertEqual(past.cursorOffset, 0)
        }
    }
}
