import XCTest
import ScrollEngine
import CommentTUITestSupport
@testable import CommentTUI

final class ScrollEventLogTests: XCTestCase {
    private let legend: [Character: CellStyle] = ["e": Theme.eventPanel, "E": Theme.eventPanel.adding(.bold)]

    private func draw(_ log: ScrollEventLog, columns: Int, rows: Int) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: rows)
        for row in 0..<rows { buffer.write(String(repeating: ".", count: columns), column: 0, row: row) }
        log.draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: columns, height: rows))
        return buffer
    }

    /// Half the feed and a row: the title, then the newest events, the scrollbar's column left alone.
    func testTheNewestEventsUnderATitleInTheLowerHalf() {
        let log = ScrollEventLog()
        for text in ["first", "second", "third"] { log.record(text) }
        assertScreen(draw(log, columns: 30, rows: 4), [
            "..............................", "",
            " scroll events (F3 closes)   .", "EEEEEEEEEEEEEEEEEEEEEEEEEEeee",
            "     0.000 second            .", "eeeeeeeeeeeeeeeeeeeeeeeeeeeee",
            "     0.000 third             .", "eeeeeeeeeeeeeeeeeeeeeeeeeeeee",
        ], legend: legend)
    }

    func testAnObservedModelsEventsAreStampedWithItsTimeAndCutAtTheEdge() {
        let model = ScrollModel<Int>(containerRows: 4, columns: 10, items: [(id: 0, height: 20)])
        let log = ScrollEventLog()
        log.observe(model)
        model.scrollTo(offset: 3, animated: false, at: ScrollInstant(seconds: 1.5))
        assertScreen(draw(log, columns: 20, rows: 2), [
            " scroll events (F3 .", "EEEEEEEEEEEEEEEEEEE",
            "     1.500 offset 0.", "eeeeeeeeeeeeeeeeeee",
        ], legend: legend)
    }
}
