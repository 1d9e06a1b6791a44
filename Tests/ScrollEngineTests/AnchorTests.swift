import XCTest
@testable import ScrollEngine

final class AnchorTests: XCTestCase {
    private func chat() -> ScrollModel<Int> {
        ScrollModel(containerRows: 10, columns: 40, items: makeItems(Array(repeating: 3, count: 40), first: 1000))
    }

    func testPrependingHistoryKeepsTheReadingPosition() {
        let model = chat()
        model.scrollTo(id: 1005, row: 2, animated: false, at: at(1))
        let before = model.anchor
        model.prepend(makeItems([4, 1, 7], first: 0))
        XCTAssertEqual(model.anchor, before)
        XCTAssertEqual(model.contentOffset, 17 + 12)
        XCTAssertEqual(model.item(atViewportRow: 0), 1005)
        model._checkInvariants()
    }

    func testPrependingAtTheTopStillKeepsTheTopItem() {
        let model = ScrollModel<Int>(containerRows: 10, columns: 40, items: makeItems([3, 3, 3, 3, 3, 3], first: 10),
                                     contentInsets: ScrollInsets(top: 2))
        XCTAssertEqual(model.contentOffset, -2)
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 10, row: -2))
        XCTAssertEqual(model.item(atViewportRow: 2), 10)
        model.prepend(makeItems([5], first: 0))
        // Item 10 stays on viewport row 2; the new item fills the rows where the inset was.
        XCTAssertEqual(model.contentOffset, 3)
        XCTAssertEqual(model.item(atViewportRow: 2), 10)
        XCTAssertEqual(model.item(atViewportRow: 1), 0)
    }

    func testAppendingFollowsAtTheBottom() {
        let model = chat()
        model.scrollToBottom(animated: false, at: at(1))
        XCTAssertEqual(model.contentOffset, 110)
        model.append(makeItems([2, 5], first: 2000))
        XCTAssertEqual(model.contentOffset, 117)
        XCTAssertTrue(model.isAtBottom)
    }

    func testAppendingElsewhereStaysPut() {
        let model = chat()
        model.scrollTo(offset: 50, animated: false, at: at(1))
        model.append(makeItems([2, 5], first: 2000))
        XCTAssertEqual(model.contentOffset, 50)
    }

    func testAppendingDuringADragAtTheBottomDoesNotMoveTheContent() {
        let model = chat()
        model.scrollToBottom(animated: false, at: at(1))
        model.handle(.press(row: 5), at: at(2))
        model.append(makeItems([4], first: 2000))
        XCTAssertEqual(model.contentOffset, 110)
        model.handle(.drag(row: 6), at: at(2.1))
        XCTAssertEqual(model.contentOffset, 109)
    }

    func testAnAnimationToTheBottomFollowsAppendedItems() {
        let model = chat()
        model.handle(.key(.bottom), at: at(1))
        model.advance(to: at(1.1))
        model.append(makeItems([6], first: 2000))
        model._checkInvariants()
        model.settle()
        XCTAssertEqual(model.contentOffset, 116)
    }

    func testAnAnimationToTheTopReachesItWhenAnItemAboveTheViewportGrows() {
        // Home, then a resize re-wraps the first item taller while the motion is on its way:
        // the motion still ends at the top, not one row short of it.
        let model = chat()
        model.scrollToBottom(animated: false, at: at(1))
        model.handle(.key(.top), at: at(2))
        model.advance(to: at(2.05))
        XCTAssertGreaterThan(model.contentOffset, 3, "still on the way, the first item above the viewport")
        model.updateHeight(id: 1000, height: 5)
        model._checkInvariants()
        model.settle()
        XCTAssertEqual(model.contentOffset, 0)
        XCTAssertEqual(model.item(atViewportRow: 0), 1000)
    }

    func testAnAnimationToAnItemFollowsItWhenHistoryIsPrepended() {
        let model = chat()
        model.scrollTo(id: 1020, at: at(1))
        model.advance(to: at(1.1))
        model.prepend(makeItems([10, 10], first: 0))
        model._checkInvariants()
        model.settle()
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1020, row: 0))
    }

    func testMomentumCarriesOnAcrossAPrepend() {
        let model = chat()
        model.scrollTo(offset: 30, animated: false, at: at(0))
        model.handle(.press(row: 9), at: at(1))
        for i in 1...5 { model.handle(.drag(row: 9 - i), at: at(1 + 0.01 * Double(i))) }
        model.handle(.release, at: at(1.05))
        model.advance(to: at(1.1))
        let velocity = model.velocity
        let top = model.anchor!
        model.prepend(makeItems([7], first: 0))
        XCTAssertEqual(model.anchor!.id, top.id)
        XCTAssertEqual(model.anchor!.row, top.row, accuracy: 1e-9)
        XCTAssertEqual(model.velocity, velocity, accuracy: 1e-9)
        XCTAssertEqual(model.phase, .decelerating)
        model._checkInvariants()
    }

    func testRewrapScalesTheRowInsideTheAnchorItem() {
        let model = ScrollModel<Int>(containerRows: 10, columns: 80, items: makeItems(Array(repeating: 10, count: 20)))
        model.scrollTo(id: 5, row: 6, animated: false, at: at(1))
        // Half the width: every item wraps to twice the rows.
        model.setContainer(rows: 10, columns: 40)
        model.updateHeights(makeItems(Array(repeating: 20, count: 20)))
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 5, row: 12))
        XCTAssertEqual(model.contentOffset, 112)
        model.updateHeight(id: 5, height: 5)
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 5, row: 3))
        model._checkInvariants()
    }

    func testResizeAtTheBottomStaysAtTheBottom() {
        let model = chat()
        model.scrollToBottom(animated: false, at: at(1))
        model.setContainer(rows: 15, columns: 40)
        XCTAssertTrue(model.isAtBottom)
        model.updateHeights(makeItems(Array(repeating: 2, count: 40), first: 1000))
        XCTAssertTrue(model.isAtBottom)
        XCTAssertEqual(model.contentOffset, 65)
    }

    func testSetItemsKeepsTheAnchorWhenItSurvives() {
        let model = chat()
        model.scrollTo(id: 1010, row: 1, animated: false, at: at(1))
        model.setItems(makeItems(Array(repeating: 3, count: 30), first: 1005))
        XCTAssertEqual(model.anchor, ScrollAnchor(id: 1010, row: 1))
        model.setItems(makeItems([1, 1], first: 0))
        XCTAssertEqual(model.contentOffset, 0)
        model._checkInvariants()
    }
}
