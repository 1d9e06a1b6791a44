import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// Tag characters (U+E0020–E007F) are invisible: they build a tag flag after U+1F3F4 (England's,
/// Scotland's), and anywhere else they spell hidden text, so the parsed text, exports and the
/// screen show them as placeholders (issue 36).
final class EmojiTagCharacterTests: XCTestCase {
    private let england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
    /// "hi" in tags after a grinning face, with and without a cancel tag.
    private let hidden = ["\u{1F600}\u{E0068}\u{E0069}", "\u{1F600}\u{E0068}\u{E0069}\u{E007F}", "\u{2764}\u{FE0F}\u{E0068}\u{E007F}"]

    private func terminalScalars(_ text: String) -> [UInt32] {
        DisplayWidth.clusters(of: text).flatMap { $0.text.unicodeScalars.map(\.value) }
    }

    private func isTag(_ value: UInt32) -> Bool { (0xE0020...0xE007F).contains(value) }

    func testTagsAfterAnEmojiThatIsNoFlagAreShownAsPlaceholders() {
        XCTAssertEqual(VisibleControls.sanitize(hidden[0]), "\u{1F600}\u{FFFD}\u{FFFD}")
        XCTAssertEqual(VisibleControls.sanitize(hidden[1]), "\u{1F600}\u{FFFD}\u{FFFD}\u{FFFD}")
        // Tags after a joiner belong to no flag either, nor tags after a flag's cancel tag.
        XCTAssertEqual(VisibleControls.sanitize("\u{1F3F4}\u{200D}\u{E0068}"), "\u{1F3F4}\u{200D}\u{FFFD}")
        XCTAssertEqual(VisibleControls.sanitize(england + "\u{E0068}"), england + "\u{FFFD}")
        XCTAssertEqual(String(CommentMarkup.parse("ok \(hidden[0]) ok", handles: { _ in nil }).characters), "ok \u{1F600}\u{FFFD}\u{FFFD} ok")
        XCTAssertEqual(ComposerFormatting.sanitizePlainText(hidden[0]), "\u{1F600}", "a draft drops them")
    }

    func testTagFlagsStay() {
        let pirate = "\u{1F3F4}\u{200D}\u{2620}\u{FE0F}"
        for text in [england, pirate, "\(england) \(pirate) \u{1F3F4}"] {
            XCTAssertEqual(VisibleControls.sanitize(text), text)
            XCTAssertEqual(ComposerFormatting.sanitizePlainText(text), text)
        }
    }

    func testTheScreenShowsStrayTagsAsPlaceholdersAndSendsNone() {
        defer { DisplayWidth.policy = .substitute }
        for policy in [GraphemePolicy.substitute, .allIntact] {
            DisplayWidth.policy = policy
            for text in hidden {
                let scalars = terminalScalars(text)
                XCTAssertFalse(scalars.contains(where: isTag), "\(policy): \(scalars)")
                XCTAssertEqual(scalars.filter { $0 == 0xFFFD }.count, text.unicodeScalars.filter { isTag($0.value) }.count,
                               "\(policy): each tag shown: \(scalars)")
            }
            XCTAssertFalse(terminalScalars(england).contains(0xFFFD), "\(policy): a flag is no stray")
        }
    }
}
