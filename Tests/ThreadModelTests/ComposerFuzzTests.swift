import Foundation
import XCTest
@testable import ThreadModel

/// Random edits over text whose Characters merge and split as it changes (combining marks,
/// Hangul jamo, ZWJ sequences, regional indicators, emoji with modifiers): the document keeps its
/// invariants after every step and never traps (issue 22, item 1).
///
/// Seeds run one after another until the time budget is spent; a failure names the seed and the
/// steps taken, and `replay(seed:)` reproduces it exactly.
final class ComposerFuzzTests: XCTestCase {
    /// How long the fuzz runs: long enough for about ten thousand edits in a debug build, short
    /// enough for CI. `COMPOSER_FUZZ_SECONDS` runs it longer by hand.
    static let budget = TimeInterval(ProcessInfo.processInfo.environment["COMPOSER_FUZZ_SECONDS"] ?? "") ?? 3
    static let stepsPerSeed = 120

    /// Pieces that join or split Characters next to each other, and some plain ones.
    static let pieces: [String] = [
        "a", "b", "Z", " ", "\n", ".", "@", "@ann", "x y",
        "\u{301}", "\u{308}", "\u{20E3}", "e\u{301}", "\u{903}",
        "\u{1100}", "\u{1161}", "\u{11A8}", "가", "각", "\u{1100}\u{1161}",
        "\u{200D}", "👩", "💻", "👩\u{200D}💻", "👨\u{200D}👩\u{200D}👧", "❤\u{FE0F}", "\u{FE0F}",
        "🇺", "🇸", "🇫🇷", "🏽", "👍🏽", "\u{D4E}", "\r\n", "\u{202E}",
    ]

    func testRandomEditsKeepTheInvariants() {
        let start = Date()
        var seed: UInt64 = 1
        var steps = 0
        while Date().timeIntervalSince(start) < Self.budget {
            let (log, failure) = Self.replay(seed: seed)
            steps += log.count
            if let failure {
                return XCTFail("seed \(seed), after \(log.count) steps: \(failure)\nsteps: \(log.joined(separator: "; "))")
            }
            seed += 1
        }
        let elapsed = Date().timeIntervalSince(start)
        print("composer fuzz: \(seed - 1) seeds, \(steps) edits in \(String(format: "%.1f", elapsed)) s (\(Int(Double(steps) / elapsed)) edits/s)")
        XCTAssertGreaterThan(seed, 10, "the budget ran out before ten seeds")
    }

    /// Runs one seed's edits; returns the steps taken and the first invariant violation.
    static func replay(seed: UInt64) -> (log: [String], failure: String?) {
        var random = SeededRandom(seed: seed)
        var doc = ComposerDocument()
        var log: [String] = []
        for _ in 0..<Self.stepsPerSeed {
            let step = Self.apply(randomStep: &random, to: &doc)
            log.append(step)
            do {
                try doc._checkInvariants()
                // Everything the screen reads after a key.
                _ = doc.currentTypingFormats
                _ = doc.mentionQuery
                _ = doc.markdown
                _ = ComposerFormat.allCases.map(doc.isActive)
                _ = doc.cursorOffset
            } catch {
                return (log, "\(error) in \(doc.string.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
        return (log, nil)
    }

    static func randomText(_ random: inout SeededRandom) -> String {
        (0...random.below(4)).map { _ in random.pick(Self.pieces) }.joined()
    }

    /// Applies one random edit; returns how to read it in a failure.
    static func apply(randomStep random: inout SeededRandom, to doc: inout ComposerDocument) -> String {
        let count = doc.string.count
        switch random.below(22) {
        case 0, 1, 2, 3:
            let piece = random.pick(Self.pieces)
            // A single typed Character, or a plain paste of several.
            let typed = random.below(2) == 0 ? String(piece.first ?? "a") : piece
            doc.insert(typed)
            return "insert \(typed.debugDescription)"
        case 4:
            var rich = AttributedString()
            for _ in 0...random.below(3) {
                let formats = Set(ComposerFormat.allCases.filter { _ in random.below(3) == 0 })
                let mention = random.below(4) == 0 ? "u\(random.below(3))" : nil
                rich.append(AttributedString(randomText(&random), attributes: doc.formatting.attributes(formats: formats, mention: mention)))
            }
            doc.insert(rich)
            return "paste rich \(String(rich.characters).debugDescription)"
        case 5:
            doc.insertMention(handle: random.pick(["ann", "bo", "ce\u{301}"]), userID: "u1")
            return "mention"
        case 6: doc.deleteBackward(); return "backspace"
        case 7: doc.deleteForward(); return "delete"
        case 8:
            let delta = random.below(7) - 3, extending = random.below(3) == 0
            doc.move(by: delta, extending: extending)
            return "move \(delta) extending \(extending)"
        case 9:
            let forward = random.below(2) == 0, extending = random.below(3) == 0
            doc.moveWord(forward: forward, extending: extending)
            return "word forward \(forward) extending \(extending)"
        case 10:
            switch random.below(4) {
            case 0: doc.moveToLineStart(extending: random.below(2) == 0); return "line start"
            case 1: doc.moveToLineEnd(extending: random.below(2) == 0); return "line end"
            case 2: doc.moveToStart(); return "start"
            default: doc.moveToEnd(); return "end"
            }
        case 11:
            let a = random.below(count + 3) - 1, b = random.below(count + 3) - 1
            doc.select(min(a, b)..<max(a, b), caretAtStart: random.below(2) == 0)
            return "select \(min(a, b))..<\(max(a, b))"
        case 12:
            let offset = random.below(count + 2)
            doc.placeCaret(nearest: offset)
            return "place caret \(offset)"
        case 13:
            let format = random.pick(ComposerFormat.allCases)
            doc.toggle(format)
            return "toggle \(format)"
        case 14:
            switch random.below(4) {
            case 0: doc.killToLineEnd(); return "kill to line end"
            case 1: doc.killToLineStart(); return "kill to line start"
            case 2: doc.killWordBackward(); return "kill word backward"
            default: doc.killWordForward(); return "kill word forward"
            }
        case 15: doc.yank(); return "yank"
        case 16, 17: doc.undo(); return "undo"
        case 18: doc.redo(); return "redo"
        case 19:
            // Saved and restored, as a draft is between sessions.
            if let restored = try? ComposerDocument(decoding: doc.encoded()) { doc = restored }
            return "save and restore"
        case 20:
            doc.replaceAll(withTyped: randomText(&random), handles: { $0 == "ann" ? "u1" : nil })
            return "external editor"
        default:
            if random.below(10) == 0 { doc.clear(); return "clear" }
            doc.insert(randomText(&random))
            return "paste"
        }
    }
}
