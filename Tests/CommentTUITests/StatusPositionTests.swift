import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// `comment i/N` in the status bar: i is the selected comment, else the newest one shown (so the
/// end of the thread reads N/N), counted among comments as the header counts them (gap markers
/// and lines that did not read are none); Alt-Up and Alt-Down with nothing selected select it.
final class StatusPositionTests: XCTestCase {
    private func position(_ pilot: Pilot) -> String {
        guard let status = pilot.lines.last, let range = status.range(of: "comment ") else { return pilot.lines.last ?? "" }
        return String(status[range.upperBound...].prefix { $0 != " " })
    }

    func testTheCountIsTheNewestCommentShown() {
        let pilot = ThreadFixture.numbered(20).pilot(columns: 40, rows: 12)
        XCTAssertTrue(pilot.lines.contains("   comment number 20"))
        XCTAssertEqual(position(pilot), "20/20", "at the newest comment the count is at its end")
        pilot.press(.ctrlHome)
        pilot.settle()
        XCTAssertEqual(pilot.lines.last { $0.hasPrefix("   comment number") }, "   comment number 2")
        XCTAssertEqual(position(pilot), "2/20")
        // One row on, the next comment's first row shows at the bottom: it counts.
        pilot.press(.ctrlDown)
        pilot.settle()
        XCTAssertEqual(position(pilot), "3/20")
    }

    func testAltUpWithNothingSelectedSelectsTheNewestCommentShownSoAReplyIsOneKeyAway() {
        let pilot = ThreadFixture.numbered(20).pilot(columns: 40, rows: 12)
        pilot.press(.altUp)
        XCTAssertEqual(pilot.selectedCommentIndex, 19, "the last comment, the one the reader just read")
        pilot.press(.altUp)
        pilot.settle()
        XCTAssertEqual(position(pilot), "19/20", "a selected comment is the one counted")
        pilot.press(.altDown)
        pilot.feed("\u{1B}r")                   // Alt-R
        XCTAssertTrue(pilot.draft.hasPrefix("> comment number 20"), pilot.draft)
        // Alt-Down from nothing selected starts there too; from the top, the newest shown is comment 2.
        let other = ThreadFixture.numbered(20).pilot(columns: 40, rows: 12)
        other.press(.ctrlHome)
        other.settle()
        other.press(.altDown)
        XCTAssertEqual(other.selectedCommentIndex, 1)
        other.press(.escape)
        other.press(.altUp)
        XCTAssertEqual(other.selectedCommentIndex, 1)
    }

    func testGapMarkersAreNotCounted() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 12)
        let later = (4...5).map { Comment(id: "c\($0)", author: "u2", created: ThreadFixture.start, body: "comment number \($0)") }
        pilot.app.receive([.gap(id: "g"), .commentsAppended(later)])
        pilot.settle()
        XCTAssertEqual(pilot.readableCommentCount, 5)
        XCTAssertEqual(position(pilot), "5/5", pilot.lines.joined(separator: "\n"))
        XCTAssertTrue(pilot.lines[0].hasSuffix("5 comments"), pilot.lines[0])
    }

    /// With a gap marker as the newest thing shown, Alt-Up selects the comment above it.
    func testAltUpWithNothingSelectedPassesOverAGapMarker() {
        let pilot = ThreadFixture.numbered(3).pilot(columns: 40, rows: 12)
        pilot.app.receive([.gap(id: "g")])
        pilot.settle()
        XCTAssertTrue(pilot.isGap(at: 3), "the marker is the newest position")
        pilot.press(.altUp)
        XCTAssertEqual(pilot.selectedCommentIndex, 2, "comment number 3, not the marker")
    }

    /// A store that, as an indexed thread file does, learns which lines do not read as it decodes them.
    private final class DecodingStore: CommentStore {
        let commentCount: Int
        let broken: Set<Int>
        private var found: Set<Int> = []
        init(count: Int, broken: Set<Int>) { commentCount = count; self.broken = broken }
        func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
            if broken.contains(index) {
                found.insert(index)
                return .failure(ThreadFileProblem(line: index + 3, message: "not valid JSON, skipped"))
            }
            return .success(Comment(id: "c\(index)", author: "u2", created: ThreadFixture.start, body: "comment number \(index + 1)"))
        }
        var unreadableCount: Int { found.count }
        func unreadableCount(through position: Int) -> Int { found.filter { $0 <= position }.count }
    }

    func testLinesThatDidNotReadAreNotCounted() {
        var fixture = ThreadFixture(title: "T", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.store = DecodingStore(count: 6, broken: [3])
        let pilot = fixture.pilot(columns: 60, rows: 20)
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains("   line 6: not valid JSON, skipped"), pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(position(pilot), "5/5", pilot.lines.joined(separator: "\n"))
        XCTAssertTrue(pilot.lines[0].hasSuffix("5 comments"), pilot.lines[0])
    }
}
