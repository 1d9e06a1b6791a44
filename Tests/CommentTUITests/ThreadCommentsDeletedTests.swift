import XCTest
import ThreadModel
@testable import CommentTUI

/// Older pages a reader loads go to the temporary file (`SpilledComments`): a redacted comment
/// among them is still deleted when its position is read back, so the app's guards (no
/// reaction, edit or deletion of a deleted comment) hold for it as for a newer one.
final class ThreadCommentsDeletedTests: XCTestCase {
    private final class Store: CommentStore {
        let comments: [Comment]
        init(_ comments: [Comment]) { self.comments = comments }
        var commentCount: Int { comments.count }
        func comment(at index: Int) -> Result<Comment, ThreadFileProblem> { .success(comments[index]) }
    }

    func testARedactedCommentInAnOlderPageReadsBackDeleted() {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let newest = Comment(id: "$new", author: "@bo:h.org", created: at + 100, body: "newest")
        let thread = CommentThread(id: "!room:h.org", title: "Room", author: "@bo:h.org", created: at, body: "", comments: [newest])
        let comments = ThreadComments(thread: thread, opened: Store([newest]), hasOlder: true)
        comments.prepend([Comment(id: "$gone", author: "@me:h.org", created: at, body: Comment.deletedBody, isDeleted: true),
                          Comment(id: "$kept", author: "@me:h.org", created: at + 1, body: "kept")], hasMore: false)
        XCTAssertEqual(comments.comment(at: 0)?.id, "$gone")
        XCTAssertEqual(comments.comment(at: 0)?.isDeleted, true, "still deleted when read back from the file")
        XCTAssertEqual(comments.comment(at: 1)?.isDeleted, false)
    }
}
