import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// What the chrome shows when the terminal is narrow or the file has lines that do not read:
/// whole parts given up, text cut with `…`, counts that count what they name.
final class ChromeFitTests: XCTestCase {
    /// At 50 columns the thread's name is shortened with `…`, and the count stays whole.
    func testANarrowStatusBarNeverCutsTheCount() {
        var fixture = ThreadFixture.numbered(2031)
        fixture.label = "release-planning.jsonl"
        let pilot = fixture.pilot(columns: 50, rows: 12)
        XCTAssertEqual(pilot.lines.last, " @ann · release-planni… · idle · comment 2030/2031")
    }
}
