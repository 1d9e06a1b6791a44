import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// The theme without colour (`NO_COLOR`, https://no-color.org; a monochrome terminal).
final class MonochromeThemeTests: XCTestCase {
    func testNoColorSetAndNotEmptyTurnsColoursOff() {
        XCTAssertTrue(Theme.usesColor(environment: [:]))
        XCTAssertTrue(Theme.usesColor(environment: ["NO_COLOR": ""]), "an empty NO_COLOR is as if unset")
        XCTAssertFalse(Theme.usesColor(environment: ["NO_COLOR": "1"]))
        XCTAssertFalse(Theme.usesColor(environment: ["NO_COLOR": "0"]), "any value counts")
    }

    /// The mention list stands out in reverse video, and its highlighted row from the list:
    /// that one is not reversed. No cell has a colour.
    func testTheMentionListStandsOutAndItsHighlightedRowFromIt() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 50, rows: 16)
        pilot.app.colorCount = 0
        pilot.type("@")
        pilot.settle()
        let screen = pilot.screen.screen
        func style(of text: String) -> CellStyle? {
            for row in 0..<screen.rows {
                let line = screen.line(row)
                guard let range = line.range(of: text) else { continue }
                return screen[line.distance(from: line.startIndex, to: range.lowerBound), row].style
            }
            return nil
        }
        let highlighted = try? XCTUnwrap(style(of: "▸"), pilot.lines.joined(separator: "\n"))
        let title = try? XCTUnwrap(style(of: "─ @"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(title?.attributes.contains(.reverse), true)
        XCTAssertEqual(highlighted?.attributes.contains(.reverse), false)
        let coloured = (0..<screen.rows).flatMap { row in (0..<screen.columns).map { screen[$0, row].style } }
            .filter { $0.foreground != .default || $0.background != .default }
        XCTAssertEqual(coloured.count, 0, "coloured cells")
    }
}
