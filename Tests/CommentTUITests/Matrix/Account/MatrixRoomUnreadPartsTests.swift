import XCTest
@testable import CommentTUI
import ThreadModel

/// A room's row counts its main timeline's unread and its posts' apart and adds them only for
/// the row: an answer leaving a count out keeps the last main count, never the summed one.
final class MatrixRoomUnreadPartsTests: XCTestCase {
    private func answer(_ counts: JSONValue, posts: JSONValue) -> JSONValue {
        ["next_batch": "s", "rooms": ["join": ["!r:h.org": [
            "timeline": ["events": []], "unread_notifications": counts, "unread_thread_notifications": posts,
        ]]]]
    }

    private func row(_ rooms: MatrixAccountRooms) -> [Int?] {
        let row = rooms.summary(roomID: "!r:h.org")
        return [row?.unread, row?.highlights]
    }

    func testAnswersWithoutTheNotificationCountDoNotAddThePostsAgain() {
        var rooms = MatrixAccountRooms(account: "@ann:h.org")
        let posts: JSONValue = ["$p": ["notification_count": 2, "highlight_count": 1]]
        rooms.apply(sync: answer(["notification_count": 1, "highlight_count": 0], posts: posts))
        XCTAssertEqual(row(rooms), [3, 1])
        // The server leaves out notification_count (then highlight_count) three times over.
        for _ in 0..<3 { rooms.apply(sync: answer(["highlight_count": 0], posts: posts)) }
        XCTAssertEqual(row(rooms), [3, 1], "the main count kept, the posts' added once")
        for _ in 0..<3 { rooms.apply(sync: answer(["notification_count": 1], posts: posts)) }
        XCTAssertEqual(row(rooms), [3, 1])
        // The posts read: only the main timeline's are left.
        rooms.apply(sync: answer(["highlight_count": 0], posts: [:]))
        XCTAssertEqual(row(rooms), [1, 0])
    }
}
