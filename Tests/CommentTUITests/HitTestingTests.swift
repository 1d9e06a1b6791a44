import XCTest
import ScrollEngine
@testable import CommentTUI

final class HitTestingTests: XCTestCase {
    func testRectSubtractionTable() {
        let frame = CellRect(column: 0, row: 0, width: 10, height: 6)
        let cases: [(CellRect, Int)] = [
            (CellRect(column: 0, row: 0, width: 10, height: 2), 40),  // top band
            (CellRect(column: 3, row: 2, width: 2, height: 2), 56),  // hole
            (CellRect(column: 20, row: 20, width: 2, height: 2), 60),  // disjoint
            (CellRect(column: -5, row: -5, width: 50, height: 50), 0),  // covers all
            (CellRect(column: 8, row: 4, width: 10, height: 10), 56),  // corner
        ]
        for (cut, area) in cases {
            let pieces = frame.subtracting(cut)
            XCTAssertEqual(HitShape(pieces).area, area, "\(cut)")
            XCTAssertEqual(pieces.reduce(0) { $0 + $1.width * $1.height }, area, "pieces overlap for \(cut)")
            for column in -1...11 {
                for row in -1...7 {
                    let expected = frame.contains(column: column, row: row) && !cut.contains(column: column, row: row)
                    XCTAssertEqual(pieces.contains { $0.contains(column: column, row: row) }, expected, "\(cut) at \(column),\(row)")
                }
            }
        }
    }

    func testShapeUnionDoesNotDoubleCount() {
        let shape = HitShape([CellRect(column: 0, row: 0, width: 4, height: 4), CellRect(column: 2, row: 2, width: 4, height: 4)])
        XCTAssertEqual(shape.area, 28)
        XCTAssertEqual(shape.subtracting(HitShape(CellRect(column: 0, row: 0, width: 6, height: 3))).area, 14)
    }

    func testTopmostLayerWins() {
        var tester = HitTester<String, Int>()
        tester.push(HitLayer(id: "feed", shape: HitShape(CellRect(column: 0, row: 0, width: 80, height: 20)), item: { _, row in row / 2 }))
        tester.push(HitLayer(id: "popup", shape: HitShape(CellRect(column: 10, row: 5, width: 20, height: 5))))
        let table: [(Int, Int, HitResult<String, Int>?)] = [
            (0, 0, HitResult(layer: "feed", item: 0)),
            (10, 5, HitResult(layer: "popup")),
            (29, 9, HitResult(layer: "popup")),
            (30, 9, HitResult(layer: "feed", item: 4)),
            (10, 10, HitResult(layer: "feed", item: 5)),
            (80, 0, nil),
            (5, -1, nil),
        ]
        for (column, row, expected) in table {
            XCTAssertEqual(tester.hitTest(column: column, row: row), expected, "(\(column), \(row))")
        }
        tester.remove("popup")
        XCTAssertEqual(tester.hitTest(column: 10, row: 5), HitResult(layer: "feed", item: 2))
    }

    func testInsetRowsVisibleAtEachOffset() {
        let table: [(offset: Double, visible: Int)] = [(0, 6), (1, 5), (2.7, 4), (5.99, 1), (6, 0), (9, 0), (-3, 8)]
        for (offset, visible) in table {
            XCTAssertEqual(ScrollingInsetShape.visibleInsetRows(frameHeight: 8, insetRows: 6, contentOffset: offset), visible, "\(offset)")
        }
    }

    /// The mention picker: rows 10–17 of the screen, its content a 6-row transparent inset then
    /// users. Clicks on the visible inset reach the feed; the transparent part shrinks as it scrolls.
    func testScrolledPickerPassesEventsThroughItsInset() {
        let users = ScrollModel<String>(containerRows: 8, columns: 30, items: (0..<20).map { ("user\($0)", 1) },
                                        contentInsets: ScrollInsets(top: 6))
        let frame = CellRect(column: 5, row: 10, width: 30, height: 8)
        var tester = HitTester<String, String>()
        tester.push(HitLayer(id: "feed", shape: HitShape(CellRect(column: 0, row: 0, width: 80, height: 20)),
                             item: { _, row in "comment\(row / 3)" }))
        tester.push(HitLayer(id: "picker", shape: { ScrollingInsetShape.shape(frame: frame, geometry: users.geometry) },
                             item: { _, row in users.item(atViewportRow: row - frame.row) }))

        // At rest the whole inset shows: rows 10–15 go to the feed, 16–17 to the first users.
        let atRest: [(Int, Int, HitResult<String, String>?)] = [
            (6, 10, HitResult(layer: "feed", item: "comment3")),
            (6, 15, HitResult(layer: "feed", item: "comment5")),
            (6, 16, HitResult(layer: "picker", item: "user0")),
            (34, 17, HitResult(layer: "picker", item: "user1")),
            (35, 17, HitResult(layer: "feed", item: "comment5")),
            (6, 18, HitResult(layer: "feed", item: "comment6")),
        ]
        for (column, row, expected) in atRest {
            XCTAssertEqual(tester.hitTest(column: column, row: row), expected, "at rest (\(column), \(row))")
        }

        // Scrolled up by 4 rows: 2 inset rows remain transparent.
        users.scrollTo(offset: -2, animated: false, at: at(1))
        let scrolled: [(Int, Int, HitResult<String, String>?)] = [
            (6, 11, HitResult(layer: "feed", item: "comment3")),
            (6, 12, HitResult(layer: "picker", item: "user0")),
            (6, 17, HitResult(layer: "picker", item: "user5")),
        ]
        for (column, row, expected) in scrolled {
            XCTAssertEqual(tester.hitTest(column: column, row: row), expected, "scrolled (\(column), \(row))")
        }

        // Mid-animation at a fractional offset the shape follows the drawn (whole-row) offset.
        users.scrollTo(offset: 10, at: at(2))
        users.advance(to: at(2.01))
        let drawn = users.geometry.drawnOffset
        let transparent = max(0, -drawn)
        XCTAssertEqual(tester.hitTest(column: 6, row: 10 + transparent)?.layer, "picker")
        if transparent > 0 { XCTAssertEqual(tester.hitTest(column: 6, row: 9 + transparent)?.layer, "feed") }

        // Fully scrolled: the picker covers its frame.
        users.advance(to: at(3))
        XCTAssertEqual(tester.hitTest(column: 6, row: 10), HitResult(layer: "picker", item: "user10"))
    }
}

/// Instant `seconds` after the origin.
private func at(_ seconds: Double) -> ScrollInstant { ScrollInstant(seconds: seconds) }
