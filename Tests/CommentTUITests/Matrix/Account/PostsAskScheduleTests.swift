import XCTest
@testable import CommentTUI
import ThreadModel

/// Home asks for rooms' posts one request at a time, a room at most once per few seconds, a
/// bounded number per answer, and never drops a room asked for while its request runs.
final class PostsAskScheduleTests: XCTestCase {
    private let t0 = Date(timeIntervalSince1970: 1_000_000)

    /// A thread moving while its room's request is in flight is asked for again after it.
    func testARoomAskedForWhileInFlightIsAskedAgain() {
        var schedule = PostsAskSchedule()
        XCTAssertTrue(schedule.want(["!a"], now: t0), "a worker starts")
        XCTAssertEqual(schedule.next(now: t0), "!a")
        XCTAssertFalse(schedule.want(["!a"], now: t0 + 1), "the worker runs already")
        XCTAssertNil(schedule.next(now: t0 + 2), "not again before the spacing")
        XCTAssertEqual(schedule.wakeIn(now: t0 + 2), PostsAskSchedule.spacing - 2)
        XCTAssertTrue(schedule.wake(now: t0 + PostsAskSchedule.spacing))
        XCTAssertEqual(schedule.next(now: t0 + PostsAskSchedule.spacing), "!a", "asked again: the activity is not lost")
        XCTAssertNil(schedule.next(now: t0 + PostsAskSchedule.spacing + 1))
        XCTAssertNil(schedule.wakeIn(now: t0 + PostsAskSchedule.spacing + 1))
    }

    /// A busy room is asked for once per spacing however many answers name it; one answer adds a bounded number.
    func testABusyRoomIsAskedForOncePerSpacingAndAnAnswerIsBounded() {
        var schedule = PostsAskSchedule()
        _ = schedule.want(["!a"], now: t0)
        XCTAssertEqual(schedule.next(now: t0), "!a")
        XCTAssertNil(schedule.next(now: t0 + 0.5))
        for n in 1...10 { XCTAssertFalse(schedule.want(["!a"], now: t0 + Double(n) * 0.3)) }
        XCTAssertEqual(schedule.later, ["!a"])
        XCTAssertTrue(schedule.wake(now: t0 + 10))
        XCTAssertEqual(schedule.next(now: t0 + 10), "!a")
        XCTAssertNil(schedule.next(now: t0 + 10))
        var flooded = PostsAskSchedule()
        _ = flooded.want((0..<500).map { "!r\($0)" }, now: t0)
        var asked = 0
        while flooded.next(now: t0) != nil { asked += 1 }
        XCTAssertEqual(asked, PostsAskSchedule.mostPerAnswer)
    }

    /// The first answer (the initial sync: every room with a thread looks active) asks for the newest rooms alone.
    func testTheFirstAnswerAsksForTheNewestRoomsAlone() {
        var rooms = MatrixAccountRooms(account: "@ann:h.org")
        var join: [String: JSONValue] = [:]
        for n in 0..<60 {
            join["!r\(n):h.org"] = ["timeline": ["events": [[
                "type": "m.room.message", "event_id": .string("$e\(n)"), "sender": "@bo:h.org", "origin_server_ts": .number(Double(n) * 1000),
                "content": ["msgtype": "m.text", "body": "hi", "m.relates_to": ["rel_type": "m.thread", "event_id": "$root"]],
            ]]]]
        }
        let answer: JSONValue = ["next_batch": "s1", "rooms": ["join": .object(join)]]
        rooms.apply(sync: answer)
        let first = rooms.roomsWantingPosts(after: answer, isFirst: true, most: 20)
        XCTAssertEqual(first.count, 20)
        XCTAssertEqual(first.first, "!r59:h.org", "newest first")
        XCTAssertEqual(rooms.roomsWantingPosts(after: answer, isFirst: false, most: 20).count, 60, "later: the rooms whose posts moved")
    }
}
