@testable import CommentTUI
import CommentTUITestSupport
import Foundation
import ThreadModel
import XCTest

/// Enter and Esc between a room and its posts wait for a question on screen: Alt-W's y/n takes
/// the next key (Enter answers no, and opens nothing); Esc in a post clears a notice first.
final class ClientPostQuestionTests: XCTestCase {
    /// A room (or a post) whose comments are all roots of posts, ours editable.
    private final class PostRoomSource: ThreadSource, CommentEditing, PostOpening {
        let label = "room"
        let thread: CommentThread
        let openedComments: CommentStore
        let openingProblems: [ThreadFileProblem] = []
        let updatesReady: FileDescriptor? = nil
        let draftFile: DraftFile? = nil
        let isPost: Bool
        private(set) var changes: [CommentChange] = []

        init(thread: CommentThread, isPost: Bool) {
            self.thread = CommentThread(id: thread.id, title: thread.title, author: thread.author, created: thread.created,
                                        body: thread.body, users: thread.users)
            openedComments = InMemoryThreadSource(thread: thread, label: "opened").openedComments
            self.isPost = isPost
        }

        func takeUpdates() -> [ThreadUpdate] { [] }
        func loadReadMarker() -> ReadMarker? { nil }
        func saveReadMarker(_ marker: ReadMarker) throws {}
        func send(_ comment: Comment) -> SendOutcome { .confirmed }
        func change(_ change: CommentChange, of comment: Comment) -> SendFailure? { changes.append(change); return nil }
        func postRoot(ofComment id: String) -> String? { isPost ? nil : id }
    }

    private let room = ThreadKey.room(account: "@ann:h.org", roomID: "!r:h.org")
    private var sources: [ThreadKey: PostRoomSource] = [:]

    private func client() throws -> (CommentClient, Pilot) {
        let fixture = ThreadFixture.numbered(2)
        let opener = try ThreadOpener(inBackground: false) { [unowned self] key, _ in
            let source = PostRoomSource(thread: fixture.thread, isPost: key != room)
            sources[key] = source
            return OpenCommand.Target(source: source, me: ThreadFixture.ann)
        }
        let client = CommentClient(columns: 50, rows: 16, settings: CommentClient.SessionSettings(), start: nil, startKey: nil,
                                   summaries: [ThreadSummary(key: room, name: "Room", activity: ThreadFixture.now)],
                                   opener: opener, mailbox: try ClientMailbox())
        let pilot = Pilot(client: client, screen: HeadlessScreen(columns: 50, rows: 16))
        client.show(room)
        pilot.takeUpdates()
        return (client, pilot)
    }

    /// Enter at "delete your comment? y/n" answers no: the post under the selection stays shut,
    /// and a y after it deletes nothing.
    func testEnterAtTheDeleteQuestionAnswersNoAndOpensNoPost() throws {
        let (client, pilot) = try client()
        pilot.press(KeyPress(.up, .alt))          // c2, ann's, a post's root
        pilot.advance(by: 1)
        pilot.press(.alt("w"))
        XCTAssertEqual(client.current?.message, "delete your comment? y/n")
        pilot.advance(by: 1)
        pilot.press(KeyPress(.enter))
        pilot.takeUpdates()
        XCTAssertEqual(client.place, .thread(room), "Enter answered the question; no post opened")
        XCTAssertEqual(client.current?.message, "kept your comment")
        pilot.advance(by: 1)
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(sources[room]?.changes.count, 0, "the deletion was not left armed")
        XCTAssertEqual(client.current?.draft, "y", "typed, not an answer")
        pilot.advance(by: 1)
        pilot.press(KeyPress(.backspace))
        pilot.advance(by: 1)
        pilot.press(KeyPress(.enter))
        pilot.takeUpdates()
        XCTAssertEqual(client.place, .thread(.post(account: "@ann:h.org", roomID: "!r:h.org", root: "c2")),
                       "with no question, Enter opens the post")
    }

    /// In a post, Esc with a notice on screen clears the notice; the next Esc leaves the post.
    func testEscInAPostClearsANoticeBeforeLeaving() throws {
        let (client, pilot) = try client()
        pilot.press(KeyPress(.up, .alt))
        pilot.advance(by: 1)
        pilot.press(KeyPress(.enter))
        let post = ThreadKey.post(account: "@ann:h.org", roomID: "!r:h.org", root: "c2")
        pilot.takeUpdates()
        XCTAssertEqual(client.place, .thread(post))
        client.current?.showMessage("a notice")
        pilot.advance(by: 1)
        pilot.press(KeyPress(.escape))
        XCTAssertEqual(client.place, .thread(post), "the first Esc clears the notice")
        XCTAssertNil(client.current?.message)
        pilot.advance(by: 1)
        pilot.press(KeyPress(.escape))
        XCTAssertEqual(client.place, .thread(room))
    }
}
