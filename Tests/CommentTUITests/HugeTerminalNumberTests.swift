import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
import CommentTUITestSupport

/// Mouse reports far past the screen (a terminal larger than the client's largest screen,
/// `TerminalDevice.maxRows`, or one that lies): the decoder clamps each number, and the app takes
/// them as places off the screen, never as sizes or indexes (issue 36). A regression guard: it
/// passed before issue 36's clamps too (the crash there was the terminal's size,
/// `HugeTerminalSizeTests`); it keeps huge coordinates from becoming sizes later.
final class HugeTerminalNumberTests: XCTestCase {
    func testHugeMouseCoordinatesChangeNothingOnScreenAndCrashNothing() {
        let pilot = ThreadFixture.numbered(30).pilot(columns: 40, rows: 12)
        pilot.settle()
        let before = pilot.lines
        let far = "99999999999"
        for code in [0, 1, 2, 32, 35, 64, 65, 66, 67] {
            pilot.feed("\u{1B}[<\(code);\(far);\(far)M")
            pilot.feed("\u{1B}[<\(code);5;\(far)M")
            pilot.feed("\u{1B}[<\(code);\(far);5M")
            pilot.feed("\u{1B}[<\(code);\(far);\(far)m")
        }
        pilot.press(.f(2))
        pilot.feed("\u{1B}[<35;\(far);\(far)M")
        pilot.press(.f(2))
        pilot.press(.f(3))
        pilot.feed("\u{1B}[<0;\(far);\(far)M\u{1B}[<32;\(far);3M\u{1B}[<0;\(far);\(far)m")
        pilot.press(.f(3))
        pilot.settle()
        XCTAssertEqual(pilot.lines, before)
    }
}
