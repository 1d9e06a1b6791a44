import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A send the homeserver takes and never answers usably (no answer in time, a `200` without an
/// `event_id`): tried again with the same transaction id after each attempt's timeout, and past
/// a bound `not sent` with the reason, never `sending…` forever. The room is a real Synapse's;
/// only the sends go to a homeserver on 127.0.0.1 that misbehaves (`UnansweringHomeserver`),
/// through the source's send attempt.
final class MatrixUnansweredSendTests: SharedSynapseTestCase {
    /// Ann's source in a room of Bo's, its sends going to `homeserver` with 1 s per attempt.
    private func source(sendingTo homeserver: UnansweringHomeserver, environment: [String: String])
        throws -> (source: MatrixThreadSource, ann: MatrixTestUser, room: String) {
        let (bo, ann, room) = try twoUsersInARoom("Unanswered", on: try server)
        try bo.other.sendText(roomID: room, body: "post")
        let source = try open(room, as: ann, environment: environment)
        let misbehaving = MatrixClient(homeserver: homeserver.url, accessToken: "not-a-real-token")
        source.sendTimeout = 1
        source.sendAttempt = { _, room, type, transactionID, content, timeout in
            try misbehaving.send(room: room, type: type, transactionID: transactionID, content: content, timeout: timeout)
        }
        return (source, ann, room)
    }

    /// Feeds the source's updates to the app as its loop would, until `done` holds (bounded).
    @discardableResult
    private func pump(_ app: CommentApp, _ source: ThreadSource, timeout: Double = 40, until done: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while try !done() {
            guard Date() < deadline else { return false }
            if let ready = source.updatesReady { _ = try? Poll.readable([ready], timeout: 0.2) }
            app.wallTime = Date()
            app.receive(source.takeUpdates())
        }
        return true
    }

    /// An app over `source` sends `text`, which `homeserver` leaves without an event ID until
    /// the app gives it up as not sent; returns the app and the comment's id.
    private func sendGivenUp(_ text: String, from source: MatrixThreadSource, to homeserver: UnansweringHomeserver,
                             file: StaticString = #filePath, line: UInt = #line) throws -> (CommentApp, String) {
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 24)
        app.update(.paste(text))
        app.update(.key(KeyPress(.enter)))
        let id = try XCTUnwrap(app.unconfirmedComments.keys.first, file: file, line: line)
        XCTAssertTrue(pump(app, source) { isNotSent(id, in: app) }, "\(homeserver.requests)", file: file, line: line)
        return (app, id)
    }

    private func isNotSent(_ id: String, in app: CommentApp) -> Bool {
        if case .failed = app.unconfirmedComments[id] { true } else { false }
    }

    private func failure(of id: String, in source: ThreadSource) throws -> String? {
        let updates = try collectUpdates(from: source, timeout: 40) { $0.contains { if case .sendFailed(id, _) = $0 { true } else { false } } }
        for case .sendFailed(id, let reason) in updates { return reason.message }
        return nil
    }

    func testASendNeverAnsweredIsTriedAgainWithTheSameTransactionThenNotSent() throws {
        let homeserver = try UnansweringHomeserver(answer: nil)
        defer { homeserver.stop() }
        let environment = temporaryDataEnvironment()
        let (source, ann, room) = try source(sendingTo: homeserver, environment: environment)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 24)
        app.wallTime = Date()
        app.update(.paste("into the void"))
        app.update(.key(KeyPress(.enter)))
        XCTAssertEqual(app.unconfirmedComments.values.first, .sending)
        XCTAssertTrue(app.unsentAtQuit?.contains("1 comment not sent yet; it waits in ") == true, app.unsentAtQuit ?? "nothing said at quit")
        let id = try XCTUnwrap(app.unconfirmedComments.keys.first)

        XCTAssertTrue(pump(app, source) { isNotSent(id, in: app) }, "\(homeserver.requests)")
        guard case .failed(let reason) = app.deliveries[id] else { return XCTFail("not given up on") }
        XCTAssertTrue(reason.message.contains("did not answer"), reason.message)
        XCTAssertTrue(reason.message.contains("it may have reached the room"), reason.message)
        let attempts = homeserver.requests
        XCTAssertEqual(attempts.count, MatrixSendRetry.unansweredLimit, "\(attempts)")
        XCTAssertEqual(Set(attempts).count, 1, "every attempt under the same transaction id: \(attempts)")
        XCTAssertTrue(attempts.first?.contains("/send/m.room.message/\(id)") == true, "\(attempts)")
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().first?.notSent, reason,
                       "kept as not sent, not sent blindly at the next start")

        // The app shows it not sent, with the keys; at quit it says where it waits.
        XCTAssertTrue(app.render().buffer.trimmedLines.contains { $0.contains("not sent: homeserver") })
        XCTAssertTrue(app.message?.contains("Alt-T") == true, app.message ?? "")
        XCTAssertTrue(app.unsentAtQuit?.contains("1 comment not sent; it waits in ") == true, app.unsentAtQuit ?? "nothing said at quit")
        XCTAssertFalse(app.unsentAtQuit?.contains(ann.account.accessToken) ?? true)
    }

    func testASendAnsweredWithoutAnEventIDIsNotSentAfterABoundAndGoesWhenRetried() throws {
        let homeserver = try UnansweringHomeserver(answer: "{}")
        defer { homeserver.stop() }
        let environment = temporaryDataEnvironment()
        let (source, ann, room) = try source(sendingTo: homeserver, environment: environment)
        defer { source.stop() }
        let sent = comment(by: ann, "answered with nothing")
        XCTAssertEqual(source.send(sent), .pending)
        let reason = try XCTUnwrap(try failure(of: sent.id, in: source), "\(homeserver.requests)")
        XCTAssertTrue(reason.contains("no event id"), reason)
        XCTAssertEqual(homeserver.requests.count, MatrixSendRetry.unansweredLimit, "\(homeserver.requests)")
        XCTAssertEqual(Set(homeserver.requests).count, 1, "\(homeserver.requests)")

        // Retried once the homeserver behaves (Synapse's own send): posted, once.
        source.sendAttempt = { client, room, type, transactionID, content, timeout in
            try client.send(room: room, type: type, transactionID: transactionID, content: content, timeout: timeout)
        }
        XCTAssertEqual(source.send(sent), .pending)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(sent.id) = $0 { true } else { false } } }
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "answered with nothing" }.count, 1)
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
    }

    /// What reaching the room under `id` after all looks like: Synapse takes a send of Ann's
    /// device under the same transaction id, and her sync echoes it with that id.
    private func postedAfterAll(_ id: String, _ body: String, by source: MatrixThreadSource, in room: String) throws {
        let content = source.locked { source.messageContent(body) }
        _ = try source.client.send(room: room, transactionID: id, content: content, timeout: 10)
    }

    func testASendGivenUpWhoseEchoArrivesIsSentAndNeverPostedAgain() throws {
        let homeserver = try UnansweringHomeserver(answer: "{}")
        defer { homeserver.stop() }
        let environment = temporaryDataEnvironment()
        let (source, ann, room) = try source(sendingTo: homeserver, environment: environment)
        defer { source.stop() }
        let (app, id) = try sendGivenUp("it went after all", from: source, to: homeserver)

        try postedAfterAll(id, "it went after all", by: source, in: room)
        XCTAssertTrue(pump(app, source) { app.unconfirmedComments[id] == nil }, "the echo confirms it")
        XCTAssertTrue(source.notSentReasons.isEmpty, "\(source.notSentReasons)")
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty, "marked sent")
        let lines = app.render().buffer.trimmedLines
        XCTAssertEqual(lines.filter { $0.contains("it went after all") }.count, 1, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains("not sent") }, "\(lines)")

        // Neither key posts it a second time.
        app.update(.key(KeyPress(.enter)))
        app.update(.key(KeyPress(.character("t"), .alt)))
        XCTAssertEqual(app.draftMarkdown, "")
        XCTAssertEqual(app.message, "no comment waits unsent")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "it went after all" }.count, 1)
    }

    func testASendGivenUpAndDiscardedShowsAsACommentWhenItsEchoArrives() throws {
        let homeserver = try UnansweringHomeserver(answer: "{}")
        defer { homeserver.stop() }
        let environment = temporaryDataEnvironment()
        let (source, ann, room) = try source(sendingTo: homeserver, environment: environment)
        defer { source.stop() }
        let (app, id) = try sendGivenUp("discarded yet there", from: source, to: homeserver)
        app.update(.key(.altUp))
        app.update(.key(KeyPress(.character("x"), .alt)))
        XCTAssertEqual(app.message, "comment discarded")
        XCTAssertFalse(app.allComments.contains { $0.id == id })

        try postedAfterAll(id, "discarded yet there", by: source, in: room)
        XCTAssertTrue(pump(app, source) { app.allComments.contains { $0.body.contains("discarded yet there") } },
                      "the late echo shows as a comment: \(app.allComments.map(\.body)) \(app.render().buffer.trimmedLines)")
        XCTAssertTrue(app.unconfirmedComments.isEmpty)
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
    }

    func testASendTimingOutWhileTheServerIsNotHeardFromWaitsWithoutGivingUp() throws {
        let homeserver = try UnansweringHomeserver(answer: nil)
        defer { homeserver.stop() }
        let environment = temporaryDataEnvironment()
        let (bo, ann, room) = try twoUsersInARoom("Network gone", on: try server)
        try bo.other.sendText(roomID: room, body: "post")
        try open(room, as: ann, environment: environment).stop()   // leaves the offline copy
        // Reopened from the offline copy with the network gone: neither the sync nor a send is answered.
        let away = MatrixClient(homeserver: homeserver.url, accessToken: ann.account.accessToken)
        let source = try MatrixThreadSource(client: away, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: environment)
        defer { source.stop() }
        source.sendTimeout = 1
        let sent = comment(by: ann, "written with the network gone")
        XCTAssertEqual(source.send(sent), .pending)
        // Each attempt first asks the room's state (is it encrypted now?), which waits the send's
        // 1 s unanswered, then 1, 2 and 4 s pass between attempts: the fourth starts about 11 s in.
        var attempts: [String] { homeserver.requests.filter { !$0.contains("/sync") } }
        let deadline = Date().addingTimeInterval(150)
        while attempts.count <= MatrixSendRetry.unansweredLimit, Date() < deadline { Thread.sleep(forTimeInterval: 0.5) }
        XCTAssertGreaterThan(attempts.count, MatrixSendRetry.unansweredLimit, "still tried: \(homeserver.requests)")
        let failures = source.takeUpdates().filter { if case .sendFailed = $0 { true } else { false } }
        XCTAssertTrue(failures.isEmpty, "the network's absence only delays it: \(failures)")
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().map(\.notSent), [nil])
    }
}
