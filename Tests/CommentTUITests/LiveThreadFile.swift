import Foundation
import XCTest
import ScrollEngine
@testable import ThreadModel
@testable import CommentTUI
#if canImport(Glibc)
import Glibc
#endif

/// A thread file in a fresh directory, and clients following it as the running app does: for
/// tests of what other writers and programs do to the file while it is open.
struct LiveThreadFile {
    static let start = Date(timeIntervalSince1970: 1_744_884_000)
    let directory: URL
    let path: String
    /// The data directory (`XDG_DATA_HOME`): drafts and read markers.
    let data: String

    /// `t.jsonl` titled `title`, with users ann and bo and `comments` comments by bo (`c1`…).
    init(_ test: XCTestCase, title: String = "Release", comments: Int = 3) throws {
        directory = try temporaryDirectory(test)
        path = directory.appendingPathComponent("t.jsonl").path
        data = directory.appendingPathComponent("data").path
        try ThreadFileWriter(path: path).create(Self.records(title: title, comments: (0..<comments).map { "c\($0 + 1)" }))
    }

    /// A thread's records: header, ann and bo, and comments by bo with these ids.
    static func records(title: String, comments ids: [String]) -> [ThreadRecord] {
        [.thread(ThreadHeader(id: "t-\(title)", title: title, author: "u1", created: start, body: "About \(title)")),
         .user(User(id: "u1", handle: "ann", name: "Ann")),
         .user(User(id: "u2", handle: "bo", name: "Bo"))] + ids.map { .comment(comment($0)) }
    }

    static func comment(_ id: String, body: String? = nil) -> Comment {
        Comment(id: id, author: "u2", created: start, body: body ?? "body of \(id)")
    }

    /// A client following the file, as ann, keeping its state in `data`.
    func openApp(columns: Int = 60, rows: Int = 16) throws -> CommentApp {
        let source = try ThreadFileSource(path: path, environment: ["XDG_DATA_HOME": data])
        let app = CommentApp(source: source, me: try XCTUnwrap(source.thread.user(handle: "ann")), columns: columns, rows: rows)
        app.wallTime = Self.start.addingTimeInterval(60)
        return app
    }

    /// The ids of the comments in the file now, in its order.
    func fileCommentIDs() throws -> [String] { try ThreadFile.read(path: path).thread.comments.map(\.id) }

    /// The comments' bodies in the file now.
    func fileBodies() throws -> [String] { try ThreadFile.read(path: path).thread.comments.map(\.body) }

    /// Types text (a `\r` is Enter) into the app as keys.
    static func type(_ text: String, into app: CommentApp) {
        var decoder = InputDecoder()
        for event in decoder.feed(Array(text.utf8)) + decoder.flush() { _ = app.handle(event) }
    }

    /// Takes the source's updates as the loop does, whenever its descriptor is readable, until
    /// `done` holds; false if it does not within `timeout` seconds of real time.
    @discardableResult
    static func pump(_ app: CommentApp, timeout: Double = 5, until done: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(timeout * 1000))
        while !done() {
            guard clock.now < deadline else { return false }
            guard let ready = app.source.updatesReady else { return false }
            if let readable = try? Poll.readable([ready], timeout: 0.05), !readable.isEmpty { app.sourceIsReady() }
        }
        return true
    }
}

/// A thread file's append lock held from an open file description of its own, as another
/// process's `post` holds it while it indexes a big file (flock locks conflict between open
/// file descriptions, in one process as between two).
final class AppendLock: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var held = true

    init(path: String) throws {
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        guard flock(fd, LOCK_EX) == 0 else { throw SystemError("flock", path: path) }
    }

    /// Lets go at once (again: nothing).
    func release() {
        lock.withLock {
            guard held else { return }
            held = false
            close(fd)
        }
    }

    /// Lets go after `seconds` at the latest, from another thread: a client that wrongly waits
    /// for the lock on its own thread then fails the test instead of hanging it.
    func release(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.release() }
    }

    deinit { release() }
}
