import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Whole-screen flows driven through the pilot: keys, the mouse and time, as the loop delivers them.
final class PilotTests: XCTestCase {
    func testCtrlHomeGlidesToThePostAndCtrlEndBack() {
        let pilot = ThreadFixture.numbered(20).pilot()
        pilot.press(.ctrlHome)
        XCTAssertTrue(pilot.lines.last!.contains(" · animating · "), pilot.lines.last!)
        pilot.settle()
        XCTAssertEqual(pilot.lines[3], " Bo 日本 @bo · 2025-04-17")
        pilot.press(.ctrlEnd)
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains("   comment number 20"))
    }

    func testAWheelNotchOverTheFeedMovesItThreeRows() {
        let pilot = ThreadFixture.numbered(20).pilot()
        let bottom = pilot.feedOffset
        pilot.wheel(.up, column: 5, row: 5)
        pilot.settle()
        XCTAssertEqual(pilot.feedOffset, bottom - 3)
    }

    func testTypingAndEnterPostTheComment() {
        let pilot = ThreadFixture.numbered(3).pilot()
        pilot.type("hi there\n")
        pilot.settle()
        XCTAssertEqual(pilot.app.memorySource.sent.map(\.body), ["hi there"])
        XCTAssertTrue(pilot.lines.contains("   hi there"))
        XCTAssertEqual(pilot.lines[10], "›")
    }

    func testOnTheSmallestScreenTheMentionListShowsAUserUnderItsTitle() {
        // 24x8 leaves the feed three rows: the list takes two, its title and the highlighted user
        // (the title alone would hide whom Tab inserts); the scrollbar stays above it.
        let pilot = ThreadFixture.numbered(1).pilot(columns: 24, rows: 8)
        pilot.type("@")
        assertScreen(pilot.screen.screen, [
            " Hello ␛[2Jworld · @ann", " bbbbbbbbbbbbbbbhhhhhhh",
            "────────────────────────", "dddddddddddddddddddddddd",
            " @bo                   ┃", " hhh",
            "─ @ · 1 user ───────────", "tttttttttttttttttttttttt",
            " ▸ @bo  Bo 日本         ", "lllHHHllllllllllllllllll",
            "────────────────────────", "dddddddddddddddddddddddd",
            "› @", "pp",
            " test · comment 1/1     ", "ssssssssssssssssssssssss",
        ], legend: ["b": Theme.title, "h": Theme.handle, "d": Theme.rule, "t": Theme.pickerTitle, "p": Theme.prompt,
                    "s": Theme.statusBar, "l": Theme.pickerHighlight, "H": Theme.pickerHighlight.adding(.bold)])
    }
}
