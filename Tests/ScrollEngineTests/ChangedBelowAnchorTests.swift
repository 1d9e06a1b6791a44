import XCTest
@testable import ScrollEngine

/// An item that only gained or lost rows at its end (a reaction row under a comment's text):
/// the reading position inside it is kept, not scaled as after a re-wrap.
final class ChangedBelowAnchorTests: XCTestCase {
    private func model() -> ScrollModel<Int> {
        ScrollModel(containerRows: 10, columns: 40, items: makeItems([3, 10, 3, 3, 3, 3, 3, 3, 3, 3], first: 0))
    }

    func testARowTakenAwayBelowKeepsTheAnchorRow() {
        let model = model()
        model.scrollTo(id: 1, row: 5, animated: false, at: at(1))
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1, row: 5))
        model.updateHeights([(id: 1, height: 9)], changedBelow: [1])
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1, row: 5), "the same row of the text on top")
        XCTAssertEqual(model.contentOffset, 8)
        model.updateHeights([(id: 1, height: 10)], changedBelow: [1])
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1, row: 5), "and back")
        model._checkInvariants()
    }

    func testARewrapStillScalesTheAnchorRow() {
        let model = model()
        model.scrollTo(id: 1, row: 5, animated: false, at: at(1))
        model.updateHeights([(id: 1, height: 5)])
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1, row: 2), "re-wrapped: the row scaled")
    }
}
