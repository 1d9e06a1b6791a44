import XCTest
import CommentTUITestSupport
@testable import CommentTUI

final class NoticeViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = ["n": Theme.notice, "d": Theme.dim, "k": Theme.authorName]

    func testTooSmallCentresWhatIsNeededAndWhatThereIs() {
        var buffer = CellBuffer(columns: 14, rows: 5)
        NoticeView.drawTooSmall(into: &buffer)
        assertScreen(buffer, [
            "", "",
            "  too small", "  nnnnnnnnn",
            "  need 20x8", "  ddddddddd",
            "  have 14x5", "  ddddddddd",
            "", "",
        ], legend: legend)
    }

    func testHelpTitleThenKeysInTheirOwnColumnCutAtTheEdge() {
        var buffer = CellBuffer(columns: 30, rows: 4)
        NoticeView.drawHelp(into: &buffer, rect: CellRect(column: 0, row: 0, width: 30, height: 3))
        // The keys' column is half the width here (15): keys are cut before it, descriptions at the edge.
        assertScreen(buffer, [
            " Keys (Esc or F1 closes)", " nnnnnnnnnnnnnnnnnnnnnnn",
            " Enter · Alt-En send (empty: r", " kkkkkkkkkkkkkk",
            " Ctrl-C, F10, C quit (the draf", " kkkkkkkkkkkkkk",
            "", "",
        ], legend: legend)
    }
}
