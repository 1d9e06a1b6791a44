import XCTest
@testable import ScrollEngine
@testable import ThreadModel

final class ItemHeightsTests: XCTestCase {
    func testLookupsOnAFixedList() {
        let heights = ItemHeights(makeItems([3, 0, 2, 5]))
        heights._checkInvariants()
        XCTAssertEqual(heights.totalHeight, 10)
        XCTAssertEqual((0..<4).map(heights.offset(ofIndex:)), [0, 3, 3, 5])
        // Rows map to the covering item; the zero-height item 1 is never returned.
        XCTAssertEqual((0..<10).map { heights.index(containingRow: $0)! }, [0, 0, 0, 2, 2, 3, 3, 3, 3, 3])
        XCTAssertEqual(heights.index(containingRow: -5), 0)
        XCTAssertEqual(heights.index(containingRow: 99), 3)
        XCTAssertEqual(heights.offset(of: 3), 5)
        XCTAssertNil(heights.offset(of: 42))
    }

    func testPrependKeepsDisplayOrderAndOffsets() {
        var heights = ItemHeights(makeItems([1, 2], first: 10))
        heights.prepend(contentsOf: makeItems([4, 5], first: 0))
        heights.prepend(contentsOf: makeItems([7], first: -1))
        heights.append(id: 12, height: 3)
        heights._checkInvariants()
        XCTAssertEqual(heights.items.map(\.id), [-1, 0, 1, 10, 11, 12])
        XCTAssertEqual(heights.items.map(\.height), [7, 4, 5, 1, 2, 3])
        XCTAssertEqual(heights.offset(of: 10), 16)
        XCTAssertEqual(heights.index(containingRow: 7), 1)
        XCTAssertEqual(heights.index(containingRow: 15), 2)
        XCTAssertTrue(heights.setHeight(1, for: 0))
        XCTAssertFalse(heights.setHeight(1, for: 99))
        heights._checkInvariants()
        XCTAssertEqual(heights.offset(of: 10), 13)
    }

    func testEmptyList() {
        let heights = ItemHeights<Int>()
        heights._checkInvariants()
        XCTAssertNil(heights.index(containingRow: 0))
        XCTAssertEqual(heights.totalHeight, 0)
    }

    /// Random appends, prepends and height changes against a plain array.
    func testRandomOperationsMatchANaiveList() {
        var rng = SeededRandom(seed: 7)
        var heights = ItemHeights<Int>()
        var naive: [(id: Int, height: Int)] = []
        var nextID = 0
        for _ in 0..<400 {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let batch = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                    defer { nextID += 1 }
                    return (id: nextID, height: Int.random(in: 0...4, using: &rng))
                }
                heights.append(contentsOf: batch)
                naive += batch
            case 1:
                let batch = (0..<Int.random(in: 1...5, using: &rng)).map { _ in
                    defer { nextID += 1 }
                    return (id: nextID, height: Int.random(in: 0...4, using: &rng))
                }
                heights.prepend(contentsOf: batch)
                naive = batch + naive
            default:
                guard !naive.isEmpty else { continue }
                let i = Int.random(in: 0..<naive.count, using: &rng)
                naive[i].height = Int.random(in: 0...6, using: &rng)
                heights.setHeight(naive[i].height, for: naive[i].id)
            }
            XCTAssertEqual(heights.items.map(\.id), naive.map(\.id))
            XCTAssertEqual(heights.items.map(\.height), naive.map(\.height))
            heights._checkInvariants()
        }
    }
}
