import Foundation
import XCTest
@testable import ThreadModel

/// What the composer shows as a mention is a mention in what is sent: random edits around
/// mention tokens, then the sent Markdown is the draft's text and, parsed back, has the same
/// mentions in the same order.
final class ComposerMentionRoundTripTests: XCTestCase {
    private static let handles = ["kofi": "u1", "ann": "u2", "bo_r": "u3"]

    /// The user ids of the mention runs, in order (adjacent runs of one user count once each).
    private func mentionIDs(_ s: AttributedString) -> [String] {
        s.runs[CommentAttributes.MentionAttribute.self].compactMap { value, _ in value }
    }

    func testTheCasesUsersHit() {
        // `hi @kof` Tab, Backspace, `x`: the token then `x`.
        var doc = ComposerDocument(text: "hi ")
        doc.select(3..<3)
        doc.insertMention(handle: "kofi", userID: "u1")
        doc.deleteBackward()
        doc.insert("x")
        XCTAssertEqual(doc.markdown, "hi @kofi x")
        // A letter typed right before a token.
        var before = ComposerDocument(text: "")
        before.insertMention(handle: "kofi", userID: "u1")
        before.select(0..<0)
        before.insert("Z")
        XCTAssertEqual(mentionIDs(CommentMarkup.parse(before.markdown) { Self.handles[$0] }), ["u1"], before.markdown)
        // Punctuation that cannot join a handle needs no space.
        var after = ComposerDocument(text: "")
        after.insertMention(handle: "kofi", userID: "u1")
        after.deleteBackward()
        after.insert(".")
        XCTAssertEqual(after.markdown, "@kofi.")
    }

    func testRandomEditsAroundTokensNeverLoseAMention() {
        var random = SeededRandom(seed: 19)
        let pieces = ["x", "Z", "_", ".", "-", " ", "1", "é", "(", "\"", "@", "k", "\n", ".x", "-a"]
        for trial in 0..<400 {
            var doc = ComposerDocument(text: "")
            var steps: [String] = []
            for _ in 0..<random.below(25) + 5 {
                let length = doc.string.count
                switch random.below(9) {
                case 0, 1:
                    let piece = random.pick(pieces)
                    doc.insert(piece)
                    steps.append("type \(piece.debugDescription)")
                case 2:
                    let handle = random.pick(Array(Self.handles.keys).sorted())
                    doc.insertMention(handle: handle, userID: Self.handles[handle]!)
                    steps.append("mention \(handle)")
                case 3:
                    doc.deleteBackward()
                    steps.append("backspace")
                case 4:
                    let offset = random.below(length + 1)
                    doc.select(offset..<offset)
                    steps.append("caret \(offset)")
                case 5:
                    doc.deleteForward()
                    steps.append("delete")
                case 6:
                    let a = random.below(length + 1), b = random.below(length + 1)
                    doc.select(min(a, b)..<max(a, b))
                    doc.deleteBackward()
                    steps.append("delete \(min(a, b))..<\(max(a, b))")
                case 7:
                    doc.killWordBackward()
                    steps.append("Ctrl-W")
                default:
                    doc.yank()
                    steps.append("Ctrl-Y")
                }
            }
            let sent = doc.markdown
            // Unformatted, the body sent is the draft as shown: no space is added on the way.
            XCTAssertEqual(sent, doc.string, "trial \(trial): \(steps.joined(separator: ", "))")
            let read = mentionIDs(CommentMarkup.parse(sent) { Self.handles[$0] })
            // Every token is read back, in order (plain `@handle` text may become one too: the
            // composer shows that highlighted as well).
            var rest = read[...]
            for token in mentionIDs(doc.text) {
                guard let found = rest.firstIndex(of: token) else {
                    XCTFail("trial \(trial): lost \(token) in \(read): \(steps.joined(separator: ", ")) → \(sent.debugDescription)")
                    break
                }
                rest = rest[(found + 1)...]
            }
        }
    }
}
