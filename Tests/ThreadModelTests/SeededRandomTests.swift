import XCTest
@testable import ThreadModel

/// The generator's numbers are pinned: `generate --seed S` and every seeded test depend on them.
final class SeededRandomTests: XCTestCase {
    func testSequenceForASeedIsFixed() {
        var random = SeededRandom(seed: 7)
        XCTAssertEqual(random.next(), 0x63CB_E1E4_5932_0DD7)
        XCTAssertEqual(random.next(), 0x044C_3CD7_F43C_661C)
        XCTAssertEqual(random.next(), 0xE698_4080_BAB1_2A02)
    }

    func testBelowIsTheRemainder() {
        var random = SeededRandom(seed: 7)
        XCTAssertEqual(random.below(1000), Int(0x63CB_E1E4_5932_0DD7 % 1000 as UInt64))
    }
}
