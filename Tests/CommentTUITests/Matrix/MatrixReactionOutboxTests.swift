import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
import ThreadModel
@testable import CommentTUI

/// Our reactions through the outbox, against a real Synapse of the test's own (stopped and
/// started): one made offline is sent once the server is back, also after quitting meanwhile;
/// one taken back before it was sent is never sent; one left in the outbox by a kill (before
/// or after it reached the server) reaches the room once.
final class MatrixReactionOutboxTests: OwnSynapseTestCase {
    private func reactions(in room: String, by user: MatrixTestUser, seenBy other: MatrixTestUser) throws -> [String] {
        try other.other.messages(roomID: room).compactMap { event in
            guard event["type"] as? String == "m.reaction", event["sender"] as? String == user.account.userID,
                  let relation = (event["content"] as? [String: Any])?["m.relates_to"] as? [String: Any] else { return nil }
            return relation["key"] as? String
        }.sorted()
    }

    private func isOffline(_ update: ThreadUpdate) -> Bool { if case .connection(.offline) = update { true } else { false } }

    private func reacted(_ key: String, on comment: String) -> ([ThreadUpdate]) -> Bool {
        { updates in
            updates.contains { update in
                guard case .reactionsChanged(comment, let counts) = update else { return false }
                return counts.contains { $0.key == key && $0.includesMine }
            }
        }
    }

    func testAReactionMadeOfflineIsSentOnceAfterQuittingAndComingBack() throws {
        let (bo, ann, room) = try twoUsersInARoom("Train", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "react on the train")
        let environment = temporaryDataEnvironment()
        let first = try open(room, as: ann, environment: environment)
        server.stop()
        try collectUpdates(from: first) { $0.contains(where: isOffline) }
        XCTAssertEqual(first.toggleReaction("🎉", on: comment), .adding)
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().map(\.reactsTo), [comment], "kept on disk")
        first.stop()  // the lid closes: the client quits with the reaction unsent

        try server.start()
        let second = try open(room, as: ann, environment: environment)
        defer { second.stop() }
        var updates = try collectUpdates(from: second, timeout: 40, until: reacted("🎉", on: comment))
        Thread.sleep(forTimeInterval: 2)  // a second send would be refused by now
        updates += second.takeUpdates()
        XCTAssertEqual(try reactions(in: room, by: ann, seenBy: bo), ["🎉"], "sent once")
        XCTAssertEqual(problems(updates), [], "no second send refused as a duplicate")
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
    }

    func testAReactionTakenBackBeforeItWasSentIsNeverSent() throws {
        let (bo, ann, room) = try twoUsersInARoom("Second thoughts", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "hmm")
        let environment = temporaryDataEnvironment()
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        server.stop()
        try collectUpdates(from: source) { $0.contains(where: isOffline) }
        XCTAssertEqual(source.toggleReaction("👍", on: comment), .adding)
        XCTAssertEqual(source.toggleReaction("👀", on: comment), .adding)
        XCTAssertEqual(source.toggleReaction("👍", on: comment), .cancelled, "not sent yet: cancelled, not sent then redacted")
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().map(\.body), ["👀"])

        try server.start()
        var updates = try collectUpdates(from: source, timeout: 40, until: reacted("👀", on: comment))
        Thread.sleep(forTimeInterval: 2)
        updates += source.takeUpdates()
        XCTAssertEqual(try reactions(in: room, by: ann, seenBy: bo), ["👀"], "the cancelled one never left")
        XCTAssertEqual(problems(updates), [])
        let redactions = try bo.other.messages(roomID: room).filter { $0["type"] as? String == "m.room.redaction" }
        XCTAssertEqual(redactions.count, 0, "nothing was sent to be redacted")
    }

    func testReactionsLeftInTheOutboxByAKillReachTheRoomOnce() throws {
        let (bo, ann, room) = try twoUsersInARoom("Crash", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "react, then crash")
        let environment = temporaryDataEnvironment()
        let outbox = try outbox(of: ann, in: room, environment: environment)
        func entry(_ key: String) -> CommentOutbox.Entry {
            var entry = CommentOutbox.Entry(txn: "reaction-\(UUID().uuidString)", author: ann.account.userID, created: Date(), body: key)
            entry.reactsTo = comment
            return entry
        }
        // Killed after the reaction reached the server but before it was marked sent…
        let reached = entry("👍")
        try outbox.queue(reached)
        let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(comment), "key": "👍"]
        _ = try ann.client.send(room: room, type: "m.reaction", transactionID: reached.txn, content: ["m.relates_to": relation])
        // …and killed between the outbox write and the first attempt.
        try outbox.queue(entry("🎉"))
        XCTAssertEqual(try outbox.unsent().map(\.body), ["👍", "🎉"])

        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        var updates = try collectUpdates(from: source, timeout: 40, until: reacted("🎉", on: comment))
        Thread.sleep(forTimeInterval: 2)
        updates += source.takeUpdates()
        XCTAssertEqual(try reactions(in: room, by: ann, seenBy: bo), ["🎉", "👍"], "each once")
        XCTAssertEqual(problems(updates), [], "no second send refused as a duplicate")
        XCTAssertTrue(try outbox.unsent().isEmpty)
    }
}
