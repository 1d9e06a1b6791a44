import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
import ThreadModel
@testable import CommentTUI

/// The problems among a source's updates (what the app would show as errors).
func problems(_ updates: [ThreadUpdate]) -> [String] {
    updates.compactMap { update -> String? in if case .problem(let problem) = update { "\(problem)" } else { nil } }
}

/// Taking back a reaction of ours that may already be in the room, against a real Synapse of
/// the test's own: one left in the outbox by a kill (it had reached the server) and taken back
/// after the restart leaves the room; on, off, on while the first send is on the wire ends on,
/// once, without an error.
final class MatrixReactionTakeBackTests: OwnSynapseTestCase {
    /// Ann's reaction keys to the room's comments that are not redacted, as Bo's client sees them.
    private func reactions(in room: String, by user: MatrixTestUser, seenBy other: MatrixTestUser) throws -> [String] {
        try other.other.messages(roomID: room).compactMap { event in
            guard event["type"] as? String == "m.reaction", event["sender"] as? String == user.account.userID,
                  let relation = (event["content"] as? [String: Any])?["m.relates_to"] as? [String: Any] else { return nil }
            return relation["key"] as? String
        }.sorted()
    }

    /// Takes the source's updates until `done` holds (checked every half second), bounded.
    private func pump(_ source: ThreadSource, timeout: Double = 40, until done: () throws -> Bool,
                      file: StaticString = #filePath, line: UInt = #line) throws -> [ThreadUpdate] {
        var collected: [ThreadUpdate] = []
        let deadline = Date().addingTimeInterval(timeout)
        while try !done() {
            guard deadline.timeIntervalSinceNow > 0 else {
                XCTFail("not done in \(timeout) s; got: \(collected.map(describe))", file: file, line: line)
                return collected
            }
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 0.5) } else { Thread.sleep(forTimeInterval: 0.5) }
            collected += source.takeUpdates()
        }
        return collected + source.takeUpdates()
    }

    func testAReactionResumedAfterAKillAndTakenBackLeavesTheRoom() throws {
        let (bo, ann, room) = try twoUsersInARoom("Kill, then regret", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "react, crash, regret")
        let environment = temporaryDataEnvironment()
        // A first run keeps the room's copy for opening offline.
        let first = try open(room, as: ann, environment: environment)
        first.stop()
        // Killed after the reaction reached the server but before it was marked sent.
        let outbox = try outbox(of: ann, in: room, environment: environment)
        var reached = CommentOutbox.Entry(txn: "reaction-\(UUID().uuidString)", author: ann.account.userID, created: Date(), body: "👍")
        reached.reactsTo = comment
        try outbox.queue(reached)
        let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(comment), "key": "👍"]
        _ = try ann.client.send(room: room, type: "m.reaction", transactionID: reached.txn, content: ["m.relates_to": relation])
        XCTAssertEqual(try reactions(in: room, by: ann, seenBy: bo), ["👍"])

        // Restarted offline: the room's copy does not know it is there; the reader takes it back.
        server.stop()
        let second = try open(room, as: ann, environment: environment)
        defer { second.stop() }
        XCTAssertEqual(second.toggleReaction("👍", on: comment), .removing, "it may be in the room: taken back, not cancelled")
        XCTAssertEqual(try outbox.unsent().compactMap(\.takesBack), [reached.txn], "the taking back is kept before anything is done")

        try server.start()
        let updates = try pump(second) { try reactions(in: room, by: ann, seenBy: bo).isEmpty && outbox.unsent().isEmpty }
        XCTAssertEqual(try reactions(in: room, by: ann, seenBy: bo), [], "redacted")
        XCTAssertEqual(problems(updates), [])
    }

    func testOnOffOnWhileTheSendIsOnTheWireEndsOnOnceWithoutAnError() throws {
        let (bo, ann, room) = try twoUsersInARoom("Dither", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "on, off, on")
        let environment = temporaryDataEnvironment()
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        let pid = try XCTUnwrap(server.pid)
        // The server takes the request and does not answer yet: the send is on the wire.
        kill(pid, SIGSTOP)
        var resumed = false
        defer { if !resumed { kill(pid, SIGCONT) } }
        XCTAssertEqual(source.toggleReaction("🎉", on: comment), .adding)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(source.toggleReaction("🎉", on: comment), .removing)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(source.toggleReaction("🎉", on: comment), .adding, "the taking back is withdrawn")
        kill(pid, SIGCONT)
        resumed = true

        let outbox = try outbox(of: ann, in: room, environment: environment)
        var updates = try pump(source) { try outbox.unsent().isEmpty && reactions(in: room, by: ann, seenBy: bo) == ["🎉"] }
        Thread.sleep(forTimeInterval: 2)  // a second send or a late redaction would land by now
        updates += source.takeUpdates()
        XCTAssertEqual(try reactions(in: room, by: ann, seenBy: bo), ["🎉"], "on, once")
        XCTAssertEqual(problems(updates), [], "no error")
        XCTAssertEqual(source.reactors(of: comment).map(\.key), ["🎉"])
    }
}

/// A reaction the room has already (Synapse refuses a second with `M_DUPLICATE_ANNOTATION`) is
/// taken as sent, with the event the room has, so taking it back later redacts that one.
final class MatrixDuplicateReactionTests: OwnSynapseTestCase {
    func testAReactionTheRoomHasAlreadyCountsAsSentAndCanBeTakenBack() throws {
        let (bo, ann, room) = try twoUsersInARoom("Twice", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "react from two places")
        let environment = temporaryDataEnvironment()
        try open(room, as: ann, environment: environment).stop()
        // Kept in the outbox offline, while another of Ann's sessions reacted the same.
        let outbox = try outbox(of: ann, in: room, environment: environment)
        var kept = CommentOutbox.Entry(txn: "reaction-\(UUID().uuidString)", author: ann.account.userID, created: Date(), body: "👍")
        kept.reactsTo = comment
        try outbox.queue(kept)
        let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(comment), "key": "👍"]
        let there = try ann.client.send(room: room, type: "m.reaction", transactionID: "elsewhere-\(UUID().uuidString)",
                                        content: ["m.relates_to": relation])
        server.stop()
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        try server.start()
        var updates = try collectUpdates(from: source, timeout: 40) { _ in (try? outbox.unsent().isEmpty) == true }
        Thread.sleep(forTimeInterval: 2)
        updates += source.takeUpdates()
        XCTAssertEqual(problems(updates), [], "not a refusal")
        XCTAssertEqual(try outbox.unsent().count, 0)

        XCTAssertEqual(source.toggleReaction("👍", on: comment), .removing)
        let redacted = try collectUpdates(from: source, timeout: 40) { _ in
            (try? ann.other.messages(roomID: room).contains { $0["type"] as? String == "m.room.redaction" && $0["redacts"] as? String == there }) == true
                || (try? ann.other.messages(roomID: room).contains {
                    $0["type"] as? String == "m.room.redaction" && ($0["content"] as? [String: Any])?["redacts"] as? String == there }) == true
        }
        XCTAssertEqual(problems(redacted), [])
    }
}
