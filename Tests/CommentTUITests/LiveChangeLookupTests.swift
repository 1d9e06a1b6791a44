import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// An edit or deletion read live from a thread file finds its comment with bounded work: the
/// newest comments' ids are read once, so a writer appending records that name comments the
/// file does not hold costs no scan of the whole thread per record.
final class LiveChangeLookupTests: XCTestCase {
    func testRecordsNamingMissingCommentsCostNoScanAndARecentEditShows() {
        let store = CountingStore(count: 200_000)
        var fixture = ThreadFixture(title: "Big", users: [ThreadFixture.ann, ThreadFixture.bo])
        fixture.store = store
        let (app, screen) = fixture.open(columns: 60, rows: 20)
        screen.show(app)
        let shown = store.requested.count
        let missing = (0..<50).map {
            ThreadUpdate.commentChanged(CommentChange(comment: "nowhere\($0)", author: "u2", created: ThreadFixture.start + 60,
                                                      kind: .edit(body: "forged")))
        }
        app.receive(missing)
        XCTAssertLessThanOrEqual(store.requested.count - shown, ThreadComments.changeLookupWindow + 30,
                                 "the newest comments were read once, not the whole thread per record")
        let afterMissing = store.requested.count
        app.receive(missing)
        XCTAssertEqual(store.requested.count, afterMissing, "nothing read again")
        app.receive([.commentChanged(CommentChange(comment: "c199990", author: "u2", created: ThreadFixture.start + 60,
                                                   kind: .edit(body: "fixed live")))])
        XCTAssertEqual(app.comment(at: 199_990)?.body, "fixed live")
        screen.show(app)
        XCTAssertFalse(screen.plainLines.contains { $0.contains("forged") })
    }
}
