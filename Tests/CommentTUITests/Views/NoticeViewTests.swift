import XCTest
import CommentTUITestSupport
@testable import CommentTUI

final class NoticeViewTests: XCTestCase {
    private let legend: [Character: CellStyle] = ["n": Theme.notice, "d": Theme.dim]

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
}
