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
        let place = try reactionOutboxRoom("Train", comment: "react on the train", on: server)
        let (ann, room, comment, environment) = (place.ann, place.room, place.comment, place.environment)
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
        XCTAssertEqual(try place.annsReactions(), ["🎉"], "sent once")
        XCTAssertEqual(problems(updates), [], "no second send refused as a duplicate")
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
    }

    func testAReactionTakenBackBeforeItWasSentIsNeverSent() throws {
        let place = try reactionOutboxRoom("Second thoughts", comment: "hmm", on: server)
        let (ann, room, comment, environment) = (place.ann, place.room, place.comment, place.environment)
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
        XCTAssertEqual(try place.annsReactions(), ["👀"], "the cancelled one never left")
        XCTAssertEqual(problems(updates), [])
        let redactions = try place.bo.other.messages(roomID: room).filter { $0["type"] as? String == "m.room.redaction" }
        XCTAssertEqual(redactions.count, 0, "nothing was sent to be redacted")
    }

    func testReactionsLeftInTheOutboxByAKillReachTheRoomOnce() throws {
        let place = try reactionOutboxRoom("Crash", comment: "react, then crash", on: server)
        let (ann, room, comment, environment) = (place.ann, place.room, place.comment, place.environment)
        let outbox = try outbox(of: ann, in: room, environment: environment)
        // Killed after the reaction reached the server but before it was marked sent…
        let reached = place.queuedReaction("👍")
        try outbox.queue(reached)
        try place.sendReaction("👍", transactionID: reached.txn)
        // …and killed between the outbox write and the first attempt.
        try outbox.queue(place.queuedReaction("🎉"))
        XCTAssertEqual(try outbox.unsent().map(\.body), ["👍", "🎉"])

        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        var updates = try collectUpdates(from: source, timeout: 40, until: reacted("🎉", on: comment))
        Thread.sleep(forTimeInterval: 2)
        updates += source.takeUpdates()
        XCTAssertEqual(try place.annsReactions(), ["🎉", "👍"], "each once")
        XCTAssertEqual(problems(updates), [], "no second send refused as a duplicate")
        XCTAssertTrue(try outbox.unsent().isEmpty)
    }
}
