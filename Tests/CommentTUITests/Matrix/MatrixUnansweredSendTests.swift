import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

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
        source.sendAttempt = { _, room, transactionID, content, timeout in
            try misbehaving.send(room: room, transactionID: transactionID, content: content, timeout: timeout)
        }
        return (source, ann, room)
    }

    private func failure(of id: String, in source: ThreadSource) throws -> String? {
        let updates = try collectUpdates(from: source, timeout: 40) { $0.contains { if case .sendFailed(id, _) = $0 { true } else { false } } }
        for case .sendFailed(id, let reason) in updates { return reason }
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
        XCTAssertEqual(app.deliveries.values.first, .sending)
        XCTAssertTrue(app.unsentAtQuit?.contains("1 comment not sent yet; it waits in ") == true, app.unsentAtQuit ?? "nothing said at quit")
        let id = try XCTUnwrap(app.deliveries.keys.first)

        let reason = try XCTUnwrap(try failure(of: id, in: source), "\(homeserver.requests)")
        XCTAssertTrue(reason.contains("did not answer"), reason)
        let attempts = homeserver.requests
        XCTAssertEqual(attempts.count, MatrixSendRetry.unansweredLimit, "\(attempts)")
        XCTAssertEqual(Set(attempts).count, 1, "every attempt under the same transaction id: \(attempts)")
        XCTAssertTrue(attempts.first?.contains("/send/m.room.message/\(id)") == true, "\(attempts)")
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().first?.notSent, reason,
                       "kept as not sent, not sent blindly at the next start")

        // The app shows it not sent, with the keys; at quit it says where it waits.
        app.receive([.sendFailed(commentID: id, reason: reason)])
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
        source.sendAttempt = { client, room, transactionID, content, timeout in
            try client.send(room: room, transactionID: transactionID, content: content, timeout: timeout)
        }
        XCTAssertEqual(source.send(sent), .pending)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(sent.id) = $0 { true } else { false } } }
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "answered with nothing" }.count, 1)
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
    }
}
