import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// A feed position is a typed item: a comment, a gap, an encrypted row or a line that did not
/// read; a gap is no longer a file problem on line 0.
final class FeedItemTests: XCTestCase {
    /// A store whose second line did not read.
    private final class BrokenStore: CommentStore {
        let comments: [Comment]
        init(_ comments: [Comment]) { self.comments = comments }
        var commentCount: Int { comments.count }
        func comment(at index: Int) -> Result<Comment, ThreadFileProblem> {
            index == 1 ? .failure(ThreadFileProblem(line: 3, message: "bad JSON")) : .success(comments[index])
        }
    }

    func testEachPositionIsItsKindAndAGapIsNoProblem() {
        let thread = ThreadFixture.numbered(3).thread
        let comments = ThreadComments(thread: thread, opened: BrokenStore(thread.comments), hasOlder: false)
        comments.appendGap(id: "gap-1")
        let sent = Comment(id: "new", author: thread.comments[0].author, created: ThreadFixture.now, body: "after the gap")
        comments.append(sent)
        XCTAssertEqual(comments.item(at: 0), .comment(thread.comments[0]))
        XCTAssertEqual(comments.item(at: 1), .problem(ThreadFileProblem(line: 3, message: "bad JSON")))
        XCTAssertEqual(comments.item(at: 3), .gap(id: "gap-1", isLoading: false))
        XCTAssertEqual(comments.item(at: 4), .comment(sent))
        XCTAssertNil(comments.comment(at: 3), "a gap holds no comment")
        XCTAssertEqual(comments.item(at: 1).notice, "line 3: bad JSON")
        XCTAssertEqual(FeedItem.problem(ThreadFileProblem(line: 0, message: "could not be read back")).notice, "could not be read back",
                       "no line of a file: no line number")
        XCTAssertEqual(comments.item(at: 3).notice, FeedItem.gapText(isLoading: false))
        XCTAssertEqual(comments.gapToFill(near: 3, margin: 0)?.id, "gap-1")
        XCTAssertEqual(comments.item(at: 3), .gap(id: "gap-1", isLoading: true), "asked for, it says it is loading")
    }

    func testARowInPlaceOfWhatCannotBeShownIsEncryptedAndLaidOutAsAComment() throws {
        let (pilot, _) = try ThreadFixture.numbered(3).queuedPilot(columns: 60, rows: 20)
        let id = pilot.app.comment(at: 1)!.id
        pilot.app.feed.isPlaceholder = { $0 == id }
        guard case .encrypted(let row) = pilot.app.feed.item(at: 1) else { return XCTFail("\(pilot.app.feed.item(at: 1))") }
        XCTAssertEqual(row.id, id)
        XCTAssertEqual(pilot.app.feed.item(at: 0).comment?.id, pilot.app.comment(at: 0)!.id)
        XCTAssertNotNil(pilot.app.feed.layout(1).header, "with its author's header, as a comment")
    }
}
