import XCTest
@testable import ThreadModel

final class DemoThreadTests: XCTestCase {
    func testDemoHasATitleAndCommentsByKnownUsers() {
        let thread = DemoThread.make()
        XCTAssertFalse(thread.title.isEmpty)
        XCTAssertGreaterThanOrEqual(thread.comments.count, 20)
        for comment in thread.comments {
            XCTAssertNotNil(thread.user(id: comment.author), "unknown author \(comment.author) of \(comment.id)")
        }
        XCTAssertEqual(Set(thread.comments.map(\.id)).count, thread.comments.count, "comment ids are unique")
    }

    func testUsersAreFoundByHandleIgnoringCase() {
        let thread = DemoThread.make()
        XCTAssertEqual(thread.user(handle: "Tatiana")?.id, "u1")
        XCTAssertNil(thread.user(handle: "nobody"))
        XCTAssertEqual(thread.displayName(of: "u3"), "山田 由紀")
        XCTAssertEqual(thread.displayName(of: "ghost"), "ghost")
    }

    func testDemoIsTheSameEveryTime() {
        XCTAssertEqual(DemoThread.make().comments, DemoThread.make().comments)
    }
}
