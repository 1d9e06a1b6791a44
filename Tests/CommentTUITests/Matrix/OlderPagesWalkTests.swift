import XCTest
@testable import CommentTUI

/// Paging back through a room's history: where the next older page starts, fed each page's
/// tokens by the test with no server. (Through Synapse with looping pages: MatrixGapLoopTests.)
final class OlderPagesWalkTests: XCTestCase {
    func testEachPageLeadsToTheOneBeforeItUntilThereIsNoEnd() {
        var walk = OlderPagesWalk()
        XCTAssertEqual(walk.page(from: "t0", gave: "t1"), "t1")
        XCTAssertEqual(walk.page(from: "t1", gave: "t2"), "t2")
        XCTAssertNil(walk.page(from: "t2", gave: nil), "no end: the room's start")
    }

    func testAPageWhoseEndIsItsOwnFromIsTheRoomsStart() {
        // Older Synapse said the start so; a hostile server would have it asked for forever.
        var walk = OlderPagesWalk()
        XCTAssertNil(walk.page(from: "t0", gave: "t0"))
    }

    func testAPageLeadingBackToATokenAskedBeforeIsTheRoomsStart() {
        var walk = OlderPagesWalk()
        XCTAssertEqual(walk.page(from: "t0", gave: "t1"), "t1")
        XCTAssertEqual(walk.page(from: "t1", gave: "t2"), "t2")
        XCTAssertNil(walk.page(from: "t2", gave: "t0"), "round in a circle: nothing older to be had")
    }

    func testTheWalkAsItWouldGoWithAServerGoingRoundInCircles() {
        // The feed asks again while the reader is at the top and the source says more is older:
        // the walk must end, however many times it is asked.
        let circle = ["t0": "t1", "t1": "t2", "t2": "t0"]
        var walk = OlderPagesWalk()
        var from: String? = "t0"
        var asked: [String] = []
        for _ in 0..<20 {
            guard let start = from else { break }
            asked.append(start)
            from = walk.page(from: start, gave: circle[start])
        }
        XCTAssertEqual(asked, ["t0", "t1", "t2"], "each page once")
        XCTAssertNil(from)
    }
}
