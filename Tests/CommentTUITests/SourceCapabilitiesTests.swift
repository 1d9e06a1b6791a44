import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The seam's split: a source with only what every source has works in the app, which asks for
/// a capability through its accessor and never for one a source did not adopt; and why a
/// comment was not sent reaches the app typed, with the words on screen as before.
final class SourceCapabilitiesTests: XCTestCase {
    func testASourceWithNoCapabilitiesOpensSendsAndIsNeverAskedForMore() throws {
        let source = BareThreadSource(fixture: .numbered(30))
        XCTAssertNil(source.olderPages)
        XCTAssertNil(source.gapFilling)
        XCTAssertNil(source.typingNotices)
        XCTAssertNil(source.readReceipts)
        XCTAssertNil(source.catchingUp)
        XCTAssertNil(source.replyTargets)
        XCTAssertNil(source.readerMentions)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 40, rows: 12)
        app.wallTime = ThreadFixture.now
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 40, rows: 12))
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains { $0.hasSuffix("comment number 30") }, "opens at the newest: \(pilot.lines)")

        // All the way up: the thread opened whole, so nothing older is asked for.
        pilot.press(.ctrlHome)
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains { $0.hasSuffix("comment number 1") }, "\(pilot.lines)")
        pilot.press(.ctrlEnd)
        pilot.settle()

        pilot.type("from a bare source")
        pilot.advance(by: 1)
        pilot.press(.enter)
        XCTAssertEqual(source.sent.map(\.body), ["from a bare source"])
        XCTAssertEqual(pilot.app.message, "posted")
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains("   from a bare source"), "\(pilot.lines)")
        pilot.draw()
        XCTAssertEqual(source.asked, [], "the app asked only through capabilities it was not given")
    }

    func testASendFailuresKindReachesTheDeliveryAndItsWordsTheScreen() throws {
        let (pilot, source) = try ThreadFixture.numbered(3).queuedPilot(columns: 40, rows: 12)
        pilot.type("again\n")
        let id = source.sent[0].id
        source.deliver(.sendFailed(commentID: id, reason: SendFailure(.refused, "room is read-only")))
        pilot.app.sourceIsReady()
        guard case .failed(let failure) = pilot.app.deliveries[id] else { return XCTFail("not marked not sent") }
        XCTAssertEqual(failure.kind, .refused)
        XCTAssertEqual(pilot.app.message, "not sent: room is read-only — Enter retries · Alt-T edits · Alt-X discards")
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains { $0.contains("· not sent: room is read-only") }, "\(pilot.lines)")
    }

    func testAFailureAtOnceKeepsTheDraftAndSaysItsWords() throws {
        let (app, screen) = ThreadFixture.numbered(3).open()
        app.memorySource.sendFailure = { _ in SendFailure(.notWritable, "No space left on device") }
        let pilot = Pilot(app: app, screen: screen)
        pilot.type("kept\n")
        XCTAssertEqual(pilot.app.message, "not sent, draft kept: No space left on device")
        XCTAssertEqual(pilot.app.composer.draft.markdown, "kept")
    }

    func testCommentsNotSentBeforeOpenWithTheirKindAndEscapedWords() throws {
        let source = try QueuedThreadSource(thread: ThreadFixture.numbered(3).thread)
        let waiting = Comment(id: "w1", author: ThreadFixture.ann.id, created: ThreadFixture.start, body: "waiting")
        source.unsentComments = [waiting]
        source.notSentReasons = ["w1": SendFailure(.gaveUp, "no answer\u{1B}[2J")]
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 40, rows: 12)
        guard case .failed(let failure) = app.deliveries["w1"] else { return XCTFail("not shown as not sent") }
        XCTAssertEqual(failure.kind, .gaveUp)
        XCTAssertFalse(failure.message.contains("\u{1B}"), failure.message)
        XCTAssertTrue(app.message?.hasPrefix("not sent: no answer") == true, app.message ?? "")
    }

    /// The outbox keeps a refusal's kind beside its words; a record written before kinds were
    /// kept still loads, with its words and an unknown kind.
    func testTheOutboxKeepsARefusalsKindAndReadsOldRecords() throws {
        let directory = try temporaryDirectory(self)
        let files = try XCTUnwrap(ThreadStateFiles(key: "t", name: "t", environment: ["XDG_DATA_HOME": directory.path]))
        let outbox = CommentOutbox(files: files)
        let created = Date(timeIntervalSince1970: 1_700_000_000)
        for txn in ["old", "new"] {
            try outbox.queue(CommentOutbox.Entry(txn: txn, author: "@ann:x", created: created, body: txn, replyTo: nil))
        }
        try files.append(Array(#"{"reason":"forbidden: no","txn":"old","type":"refused"}"#.utf8) + [10], suffix: CommentOutbox.suffix)
        try outbox.markRefused("new", reason: SendFailure(.tooLarge, "too long"))
        let unsent = try outbox.unsent()
        XCTAssertEqual(unsent.map(\.notSent), [SendFailure(.unknown, "forbidden: no"), SendFailure(.tooLarge, "too long")])
    }
}

/// A source with only what every source has. It also has methods named as the capabilities'
/// are, without adopting them: calls to them are recorded, and none should come.
private final class BareThreadSource: ThreadSource {
    let label = "bare"
    let thread: CommentThread
    let openedComments: CommentStore
    let openingProblems: [ThreadFileProblem] = []
    let updatesReady: FileDescriptor? = nil
    let draftFile: DraftFile? = nil
    private(set) var sent: [Comment] = []
    /// Calls to the capabilities' methods, by name.
    private(set) var asked: [String] = []

    init(fixture: ThreadFixture) {
        let whole = fixture.thread
        thread = CommentThread(id: whole.id, title: whole.title, author: whole.author, created: whole.created,
                               body: whole.body, users: whole.users)
        openedComments = InMemoryThreadSource(thread: whole, label: "opened").openedComments
    }

    func takeUpdates() -> [ThreadUpdate] { [] }
    func send(_ comment: Comment) -> SendOutcome {
        sent.append(comment)
        return .confirmed
    }
    func loadReadMarker() -> ReadMarker? { nil }
    func saveReadMarker(_ marker: ReadMarker) throws {}

    var hasOlderComments: Bool { true }
    func loadOlderComments() { asked.append("loadOlderComments") }
    func fillGap(_ id: String) { asked.append("fillGap") }
    func readerIsTyping(_ typing: Bool) { asked.append("readerIsTyping") }
    func readMarkerMoved(_ marker: ReadMarker) { asked.append("readMarkerMoved") }
    func loadReplyTarget(_ id: String) { asked.append("loadReplyTarget") }
    func callsForReader(_ comment: Comment) -> Bool {
        asked.append("callsForReader")
        return false
    }
}
