import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI

/// The table a layout keeps its styles in: each distinct style once, named by its index, so
/// clusters carry an index and runs are grouped by comparing indices.
final class TextStyleTableTests: XCTestCase {
    func testEqualStylesShareAnIndexAndDistinctOnesDoNot() {
        let table = TextStyleTable()
        var linked = TextRunStyle()
        linked.link = "https://example.org"
        let plain = table.index(of: .plain)
        let link = table.index(of: linked)
        XCTAssertNotEqual(plain, link)
        XCTAssertEqual(table.index(of: TextRunStyle()), plain)
        XCTAssertEqual(table.index(of: linked), link)
        XCTAssertEqual(table[link], linked)
        XCTAssertEqual(table.styles.count, 2)
        XCTAssertFalse(table.hasRuby)
        table._checkInvariants()
    }

    func testARubyBaseStyleIsNoted() {
        let table = TextStyleTable()
        var base = TextRunStyle()
        base.ruby = RubyAnnotation(reading: "かん", number: 1)
        _ = table.index(of: .plain)
        XCTAssertFalse(table.hasRuby)
        _ = table.index(of: base)
        XCTAssertTrue(table.hasRuby)
        table._checkInvariants()
    }

    /// Past the styles found by comparing, they are found by their hash: the same indices.
    func testALongTableKeepsItsIndices() {
        let table = TextStyleTable()
        let styles = (0..<(3 * TextStyleTable.scanned)).map { n -> TextRunStyle in
            var style = TextRunStyle()
            style.link = "https://example.org/\(n)"
            return style
        }
        let indices = styles.map { table.index(of: $0) }
        XCTAssertEqual(indices, Array(0..<styles.count))
        XCTAssertEqual(styles.map { table.index(of: $0) }, indices)
        table._checkInvariants()
    }

    /// A laid-out text's table: every style its lines' clusters name, each once.
    func testALaidOutTextKeepsEachStyleOnce() {
        let runs = CommentMarkup.parseRuns("> **bold** and *it* [link](https://example.org) **bold**\n\n- a\n- b", handles: { _ in nil })
        var tables: [TextStyleTable] = []
        LogicalLines.forEach(in: runs) { line in
            tables.append(line.styles)
            for piece in line.cells + line.firstPrefix + line.restPrefix + line.separator {
                XCTAssertTrue(line.styles.styles.indices.contains(piece.styleIndex))
            }
        }
        XCTAssertTrue(tables.allSatisfy { $0 === tables[0] }, "one table for the text")
        tables[0]._checkInvariants()
        let strong = tables[0].styles.filter { $0.strong }
        XCTAssertEqual(strong.count, 1, "both bold words name one style")
    }

    /// Two links to `café`, one written precomposed and one decomposed: equal as Strings, but
    /// each opens what it says, in a short table and a long one.
    func testLinksEqualOnlyCanonicallyKeepTheirOwnIndices() {
        for filler in [0, TextStyleTable.scanned + 2] {
            let table = TextStyleTable()
            for n in 0..<filler { var style = TextRunStyle(); style.spoiler = n; _ = table.index(of: style) }
            var composed = TextRunStyle()
            composed.link = "https://x.example/caf\u{E9}"
            var decomposed = TextRunStyle()
            decomposed.link = "https://x.example/cafe\u{301}"
            XCTAssertEqual(composed, decomposed, "Swift calls them equal")
            let a = table.index(of: composed)
            let b = table.index(of: decomposed)
            XCTAssertNotEqual(a, b)
            XCTAssertEqual(table[b].link.map { Array($0.utf8) }, Array("https://x.example/cafe\u{301}".utf8))
            XCTAssertEqual(table.index(of: decomposed), b)
            table._checkInvariants()
        }
    }
}
