import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport
import PlantedFileTestSupport
import ScrollEngine

/// Links planted where the client keeps its state (issue 30): each state file (outbox, draft,
/// read marker, `post`'s users file, the Matrix cache, `accounts.json`) refuses or replaces the
/// link, and the file it points to keeps its bytes and mode.
final class PlantedStateFileTests: XCTestCase {
    private struct Scene {
        let thread: String
        let data: String
        let victim: PlantedVictim
        var environment: [String: String] { ["XDG_DATA_HOME": data, "HOME": "/nonexistent"] }
        var state: ThreadStateFiles { ThreadStateFiles(threadPath: thread, environment: environment)! }
    }

    /// A thread file by ann, an empty data folder, and a victim file outside both.
    private func scene() throws -> Scene {
        let directory = try temporaryDirectory(self)
        let thread = directory.appendingPathComponent("t.jsonl").path
        XCTAssertEqual(VerbRun(.new, [thread, "--title", "T", "--as", "ann"]).status, 0)
        return Scene(thread: thread, data: directory.appendingPathComponent("data").path,
                     victim: try PlantedVictim(at: directory.appendingPathComponent("victim").path))
    }

    private func open(_ scene: Scene) throws -> CommentApp {
        let source = try ThreadFileSource(path: scene.thread, environment: scene.environment, follows: false)
        let app = CommentApp(source: source, me: source.thread.user(handle: "ann")!, columns: 60, rows: 12)
        app.wallTime = Date(timeIntervalSince1970: 1_744_884_000)
        return app
    }

    private func type(_ text: String, into app: CommentApp) {
        var decoder = InputDecoder()
        for event in decoder.feed(Array(text.utf8)) + decoder.flush() { _ = app.handle(event) }
    }

    func testAnOutboxThatIsALinkGetsNoTextAndTheCommentStillPostsAndTheReaderIsTold() throws {
        let scene = try scene()
        let outboxPath = scene.state.path(for: "outbox.jsonl")
        try scene.victim.plantLink(at: outboxPath)
        let refusal = "\(outboxPath): is a symbolic link; comment-tui never follows a link to its own files"
        let source = try ThreadFileSource(path: scene.thread, environment: scene.environment)
        defer { source.close() }
        XCTAssertEqual(source.takeUpdates().map(describe), ["problem the outbox is not read: \(refusal)"], "said at the start")
        let mine = Comment(id: "mine", author: "u1", created: Date(), body: "a draft the victim must never hold")
        XCTAssertEqual(source.send(mine), .pending)
        var updates: [String] = []
        let deadline = Date().addingTimeInterval(10)
        while !updates.contains("confirmed mine"), Date() < deadline {
            _ = try Poll.readable([XCTUnwrap(source.updatesReady)], timeout: 1)
            updates += source.takeUpdates().map(describe)
        }
        XCTAssertEqual(updates.first, "problem not kept in the outbox (it is appended all the same): \(refusal)")
        XCTAssertTrue(updates.contains("confirmed mine"), "\(updates)")
        XCTAssertEqual(try ThreadFile.read(path: scene.thread).thread.comments.map(\.body), ["a draft the victim must never hold"])
        try scene.victim.assertUntouched()
    }

    func testADraftThatIsALinkIsSetAsideUnreadAndSavedAsAFileOfItsOwn() throws {
        let scene = try scene()
        let draftPath = scene.state.path(for: "draft.json")
        try scene.victim.plantLink(at: draftPath)
        let app = try open(scene)
        XCTAssertEqual(app.message, """
            saved draft unreadable, set aside as \((draftPath as NSString).lastPathComponent).broken-1 in \(scene.data)/comment-tui/state: \
            \(draftPath): is a symbolic link; comment-tui never follows a link to its own files
            """)
        XCTAssertEqual(app.draft, "", "nothing was read through the link")
        type("mine", into: app)
        app.advance(to: app.now + 5.0)
        try scene.victim.assertUntouched()
        var status = stat()
        XCTAssertEqual(lstat(draftPath, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG)
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
        XCTAssertNotNil(try DraftFile(scene.state).load())
    }

    func testAReadMarkerNeverFollowsALinkNorAPredictedTemporaryName() throws {
        let scene = try scene()
        let markerPath = scene.state.path(for: "read.json")
        try scene.victim.plantLink(at: markerPath)
        // The names the old client used for its temporary file: `<file>.tmp-<pid>`.
        for pid in getpid()..<(getpid() + 20) { try scene.victim.plantLink(at: "\(markerPath).tmp-\(pid)") }
        let source = try ThreadFileSource(path: scene.thread, environment: scene.environment, follows: false)
        XCTAssertNil(source.loadReadMarker(), "the victim's bytes are not read as a marker")
        try source.saveReadMarker(ReadMarker(commentID: "c1", position: 0))
        try scene.victim.assertUntouched()
        XCTAssertEqual(source.loadReadMarker(), ReadMarker(commentID: "c1", position: 0))
    }

    func testPostsUsersFileThatIsALinkIsReplaced() throws {
        let scene = try scene()
        try scene.victim.plantLink(at: scene.state.path(for: "users"))
        let run = VerbRun(.post, [scene.thread, "--as", "ann", "--body", "hello"], environment: scene.environment)
        XCTAssertEqual(run.status, 0, run.error)
        try scene.victim.assertUntouched()
        var status = stat()
        XCTAssertEqual(lstat(scene.state.path(for: "users"), &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG, "the kept users file is a file of its own now")
        XCTAssertEqual(status.st_mode & 0o777, 0o600)
    }

    func testAStateDirectoryOthersCanWriteIsRefusedByName() throws {
        let scene = try scene()
        let directory = scene.state.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(directory, 0o777), 0)
        let app = try open(scene)
        XCTAssertEqual(app.message, """
            drafts are not saved this session: \
            \(directory): can be written by others (mode 777); comment-tui keeps its files only in a directory only you can write: chmod 700 it
            """)
        XCTAssertThrowsError(try (app.source as! ThreadFileSource).saveReadMarker(ReadMarker(commentID: "c1", position: 0)))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [], "nothing written there")
    }

    func testTheMatrixCacheNeverReadsOrWritesThroughALink() throws {
        let scene = try scene()
        let environment = ["XDG_CACHE_HOME": scene.data + "/cache"]
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:!room:example.org"))
        let cache = try XCTUnwrap(MatrixRoomCache(me: "@ann:example.org", address: address, environment: environment))
        try scene.victim.plantLink(at: cache.path)
        XCTAssertNil(cache.load())
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cache.path + ".broken-1"), scene.victim.path,
                       "the link itself is set aside")
        try scene.victim.plantLink(at: cache.path)
        let snapshot = MatrixRoomCache.Snapshot(
            roomID: "!room:example.org", label: "Room", header: ThreadHeader(id: "!room:example.org", title: "Room", author: "@ann:example.org",
                                                                              created: Date(timeIntervalSince1970: 0), body: ""),
            postEventID: nil, users: [], comments: [], olderToken: nil, nextBatch: "s1", fullyRead: nil)
        try cache.save(snapshot)
        try scene.victim.assertUntouched()
        XCTAssertEqual(cache.load(), snapshot)
    }

    func testAnAccountsFileThatIsALinkOrAFIFOIsRefusedAndNeverWrittenThrough() throws {
        let scene = try scene()
        let path = scene.data + "/config/comment-tui/accounts.json"
        // Read while there was no file; a link is planted before the login saves.
        var accounts = try MatrixAccounts(path: path)
        try scene.victim.plantLink(at: path)
        XCTAssertThrowsError(try MatrixAccounts(path: path)) {
            XCTAssertEqual(($0 as? CommandFailure)?.message,
                           "cannot read the accounts file: \(path): is a symbolic link; comment-tui never follows a link to its own files")
        }
        accounts.add(.init(userID: "@ann:example.org", homeserver: "https://example.org", accessToken: "syt_secret", deviceID: "D"))
        try accounts.save()
        try scene.victim.assertUntouched()
        XCTAssertEqual(try MatrixAccounts(path: path).accounts.map(\.userID), ["@ann:example.org"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)

        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        // A FIFO is refused at once; a client that opened it would wait here for a writer.
        XCTAssertThrowsError(try MatrixAccounts(path: path)) { XCTAssertTrue("\($0)".contains("FIFO"), "\($0)") }
    }

    func testADemoFileThatIsALinkIsRefusedNotOpened() throws {
        let scene = try scene()
        let demo = try XCTUnwrap(DemoThread.filePath(environment: scene.environment))
        try scene.victim.plantLink(at: demo)
        XCTAssertThrowsError(try DemoThread.install(at: demo)) {
            XCTAssertEqual("\($0)", "\(demo): is a symbolic link; comment-tui never follows a link to its own files")
        }
        try FileManager.default.removeItem(atPath: demo)
        try DemoThread.install(at: demo)
        XCTAssertGreaterThan(try ThreadFile.read(path: demo).thread.comments.count, 10)
        try scene.victim.assertUntouched()
    }
}
