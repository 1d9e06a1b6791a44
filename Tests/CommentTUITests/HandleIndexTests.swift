import XCTest
import ThreadModel
@testable import CommentTUI

/// The app's handle index, kept as users change (a member storm brings many): the same answers
/// as indexing every user again, without doing it.
final class HandleIndexTests: XCTestCase {
    private func thread(_ users: [User]) -> CommentThread {
        CommentThread(id: "t", title: "T", author: users[0].id, created: Date(timeIntervalSince1970: 0), body: "", users: users)
    }

    func testARenamedHandleLeavesItsOldOneAndAClashGoesToTheFirstByID() {
        let ann = User(id: "@a:h", handle: "ann", name: "Ann")
        let bo = User(id: "@b:h", handle: "Bo", name: "Bo")
        let otherBo = User(id: "@c:h", handle: "bo", name: "Another Bo")
        var room = thread([ann, bo, otherBo])
        var index = HandleIndex(room.users)
        XCTAssertEqual(index["BO"], "@b:h", "of two clashing handles, the first by id")

        let renamed = User(id: "@b:h", handle: "bo.h", name: "Bo")
        room.add(renamed)
        index.replace(bo, with: renamed, in: room)
        XCTAssertEqual(index["bo"], "@c:h", "the other holder takes the handle")
        XCTAssertEqual(index["bo.h"], "@b:h")

        let renamedAnn = User(id: "@a:h", handle: "ann2", name: "Ann")
        room.add(renamedAnn)
        index.replace(ann, with: renamedAnn, in: room)
        XCTAssertNil(index["ann"], "a handle nobody holds any more finds nobody")

        let dan = User(id: "@d:h", handle: "dan", name: "Dan")
        room.add(dan)
        index.replace(nil, with: dan, in: room)
        for user in room.users { XCTAssertEqual(index[user.handle], room.userIDsByLowercasedHandle[user.handle.lowercased()]) }
    }
}
