import XCTest
@testable import CommentTUI

/// A cluster's shape is the set of features terminals size by; a cluster is drawn whole only
/// where a sample of its very shape was measured two columns wide.
final class ClusterShapeTests: XCTestCase {
    private func shape(_ text: String) -> ClusterShape? { ClusterShape(Array(text.unicodeScalars)) }

    func testEachFeatureInAClusterIsInItsShape() {
        // The clusters, which tmux 3.3a draws 4, 1, 1 and 4 columns wide.
        XCTAssertEqual(shape("\u{1F937}\u{1F3FB}\u{200D}\u{2642}\u{FE0F}"), [.joiner, .skinTone, .presentationSelector])
        XCTAssertEqual(shape("\u{1F441}\u{FE0F}\u{200D}\u{1F5E8}\u{FE0F}"), [.joiner, .presentationSelector, .narrowLead])
        XCTAssertEqual(shape("\u{2764}\u{FE0F}\u{200D}\u{1F525}"), [.joiner, .presentationSelector, .narrowLead])
        XCTAssertEqual(shape("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"), [.joiner, .skinTone])
        // And those it draws two wide, whose shapes differ from all four.
        XCTAssertEqual(shape("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), [.joiner])
        XCTAssertEqual(shape("\u{1F937}\u{200D}\u{2642}\u{FE0F}"), [.joiner, .presentationSelector])
        XCTAssertEqual(shape("\u{1F1EB}\u{1F1F7}"), [.flag, .narrowLead])
        XCTAssertEqual(shape("\u{1F44D}\u{1F3FD}"), [.skinTone])
        XCTAssertEqual(shape("\u{1F590}\u{1F3FB}"), [.skinTone, .narrowLead])
        XCTAssertEqual(shape("\u{2764}\u{FE0F}"), [.presentationSelector, .narrowLead])
        XCTAssertEqual(shape("1\u{FE0F}\u{20E3}"), [.keycap, .presentationSelector, .narrowLead])
        XCTAssertEqual(shape("\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}")?.contains(.tags), true)
        if DisplayWidth.libcWidth("\u{1FAE8}") < 0 {
            XCTAssertEqual(shape("\u{1FAE8}"), [.newer])
            XCTAssertEqual(shape("\u{1FAF7}\u{1F3FB}"), [.skinTone, .newer])
        }
    }

    func testClustersTheCLibraryMeasuresRightHaveNoShape() {
        for text in ["a", "\u{1F600}", "\u{65}\u{301}", "\u{65E5}", "\u{2764}", "1\u{FE0F}", "a\u{200D}b",
                     "\u{1F600}\u{1B}"] {
            XCTAssertNil(shape(text), text.debugDescription)
        }
    }

    func testAClusterWithoutAProperBaseHasNoShape() {
        // Joining marks on nothing, a modifier on a modifier, a selector before a skin tone, a
        // joiner that joins nothing: terminals draw these any way but as one two-column cell.
        for text in ["\u{FE0F}\u{FE0F}", "\u{200D}\u{200D}", "\u{1F3FB}\u{1F3FB}", "\u{1F44D}\u{1F3FB}\u{1F3FB}\u{1F3FB}",
                     "\u{1F3FB}", "\u{20E3}", "\u{1F44D}\u{FE0F}\u{1F3FB}", "\u{1F468}\u{200D}",
                     "\u{1F468}\u{200D}\u{200D}\u{1F469}", "\u{1F468}\u{200D}\u{1F3FB}", "\u{1F1EB}\u{FE0F}",
                     "\u{1F1EB}\u{1F1F7}\u{200D}\u{1F525}", "1\u{20E3}\u{20E3}", "\u{E0067}\u{E007F}"] {
            XCTAssertNil(shape(text), text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
        // So with those shapes measured whole, such a cluster is still substituted: no cell
        // two columns wide that the terminal draws otherwise.
        DisplayWidth.policy = GraphemePolicy(intact: [[.presentationSelector], [.joiner], [.skinTone]])
        defer { DisplayWidth.policy = .substitute }
        for text in ["\u{FE0F}\u{FE0F}Abc", "\u{200D}\u{200D}Abc", "\u{1F3FB}\u{1F3FB}Abc", "\u{1F44D}\u{1F3FB}\u{1F3FB}\u{1F3FB}Abc"] {
            XCTAssertFalse(DisplayWidth.clusters(of: text).contains { $0.text.unicodeScalars.count > 1 && $0.width == 2 },
                           "\(text.debugDescription): \(DisplayWidth.clusters(of: text))")
        }
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{FE0F}\u{FE0F}Abc").map(\.text), ["A", "b", "c"], "the selectors go")
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F44D}\u{1F3FB}").count, 1, "a proper cluster of a shape measured stays whole")
    }

    func testEveryEmojiSequenceOfEmojiTestHasAShape() throws {
        // The rule for a proper base leaves out no real sequence.
        for emoji in try EmojiWidthTests.fullyQualifiedEmoji() where emoji.unicodeScalars.count > 1 {
            XCTAssertNotNil(shape(emoji), emoji.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
        }
    }

    func testShapesGoByNameAndBack() {
        for shape: ClusterShape in [[.joiner], [.joiner, .skinTone, .presentationSelector], [.flag, .narrowLead], [.tags, .newer]] {
            XCTAssertEqual(ClusterShape(name: shape.description), shape, shape.description)
        }
        XCTAssertEqual(ClusterShape([.joiner, .skinTone]).description, "joiner+skinTone")
        XCTAssertNil(ClusterShape(name: "zwjSequence"), "a name from another version")
        XCTAssertNil(ClusterShape(name: ""))
    }

    func testAClusterIsWholeOnlyWhereItsOwnShapeWasMeasured() {
        // A family measured two wide says nothing of a family member with a skin tone.
        DisplayWidth.policy = GraphemePolicy(intact: [[.joiner]])
        defer { DisplayWidth.policy = .substitute }
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}").count, 1)
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}").map(\.text), ["\u{1F469}", "\u{1F4BB}"])
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F937}\u{1F3FB}\u{200D}\u{2642}\u{FE0F}").map(\.text), ["\u{1F937}", "\u{2642}"])
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{2764}\u{FE0F}\u{200D}\u{1F525}").map(\.text), ["\u{2764}", "\u{1F525}"])
        XCTAssertEqual(DisplayWidth.width(of: "A\u{1F937}\u{1F3FB}\u{200D}\u{2642}\u{FE0F}B"), 1 + 2 + 1 + 1)
    }

    func testEveryShapeOfAnEmojiThatFitsACellHasAProbeSample() throws {
        let sampled = Set(GraphemeProbe(samples: TerminalGraphemeProbe.samples, cache: nil).samples.map(\.shape))
        var missing: [String: String] = [:]
        for emoji in try EmojiWidthTests.fullyQualifiedEmoji() where emoji.utf8.count <= GraphemePolicy.maximumBytes {
            guard let shape = shape(emoji), !sampled.contains(shape) else { continue }
            missing[shape.description] = emoji
        }
        XCTAssertEqual(missing, [:], "shapes no sample measures (so never drawn whole)")
    }
}
