import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// The table a layout names its clusters by: printable ASCII by its byte, any other cluster
/// stored once, so the cells the wrapper copies hold no String.
final class DisplayClusterTableTests: XCTestCase {
    func testPrintableASCIIIsItsOwnByteAndOthersAreStored() {
        let table = DisplayClusterTable()
        XCTAssertEqual(table.code(of: DisplayCluster(text: "a", width: 1)), Int32(UInt8(ascii: "a")))
        XCTAssertEqual(table.code(of: DisplayCluster(text: " ", width: 1)), Int32(UInt8(ascii: " ")))
        XCTAssertTrue(table.stored.isEmpty)
        let wide = DisplayCluster(text: "漢", width: 2)
        let code = table.code(of: wide)
        XCTAssertGreaterThanOrEqual(code, 128)
        XCTAssertEqual(table[code], wide)
        XCTAssertEqual(table[table.code(of: wide)], wide)
        XCTAssertEqual(table[Int32(UInt8(ascii: "a"))], DisplayCluster(text: "a", width: 1))
        table._checkInvariants()
    }

    /// Past the clusters stored as met, each is stored once: a huge body's table stays small.
    func testPastThoseStoredAsMetAClusterIsStoredOnce() {
        let table = DisplayClusterTable()
        let wide = DisplayCluster(text: "漢", width: 2)
        for _ in 0..<DisplayClusterTable.storedAsMet { _ = table.code(of: wide) }
        let code = table.code(of: wide)
        for _ in 0..<100 { XCTAssertEqual(table.code(of: wide), code) }
        XCTAssertEqual(table.code(of: DisplayCluster(text: "字", width: 2)), code + 1)
        XCTAssertEqual(table.stored.count, DisplayClusterTable.storedAsMet + 2)
        table._checkInvariants()
    }

    /// A line's cells read back as the clusters it was made of.
    func testALinesCellsReadBackAsItsClusters() {
        let text = "a 漢字 e\u{301} 👨‍👩‍👧 \u{1F1EB}\u{1F1F7}\tz"
        var lines: [LogicalLine] = []
        LogicalLines.forEach(in: CommentMarkup.parseRuns(text, handles: { _ in nil })) { lines.append($0) }
        XCTAssertEqual(lines.count, 1)
        let line = lines[0]
        XCTAssertEqual(line.clusters.map(\.cluster.width), line.cells.map(\.width))
        XCTAssertEqual(line.clusters.map(\.isSpace), line.cells.map(\.isSpace))
        XCTAssertEqual(line.clusters.map(\.cluster.text).joined(), "a 漢字 e\u{301} 👨👩👧 FR  z")
        line.clusterTable._checkInvariants()
        line.styles._checkInvariants()
    }

    /// Strings compare canonically; cells must keep the very scalars of the text (a CJK
    /// compatibility ideograph is drawn apart from its unified one, `〈` U+3008 breaks rows apart
    /// from U+2329), also past the clusters stored as met.
    func testCanonicallyEqualClustersKeepTheirOwnBytes() {
        let table = DisplayClusterTable()
        for _ in 0..<DisplayClusterTable.storedAsMet { _ = table.code(of: DisplayCluster(text: "あ", width: 2)) }
        let pairs = [("\u{795E}", "\u{FA19}"), ("\u{2329}", "\u{3008}"), ("\u{E9}", "e\u{301}")]
        for (first, second) in pairs {
            let a = DisplayCluster(text: first, width: 2)
            let b = DisplayCluster(text: second, width: 2)
            XCTAssertEqual(a, b, "Swift calls them equal")
            let codeA = table.code(of: a)
            let codeB = table.code(of: b)
            XCTAssertNotEqual(codeA, codeB)
            XCTAssertEqual(Array(table[codeA].text.utf8), Array(first.utf8))
            XCTAssertEqual(Array(table[codeB].text.utf8), Array(second.utf8))
            XCTAssertEqual(table.code(of: b), codeB, "and each is stored once")
        }
        table._checkInvariants()
    }
}
