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
        let place = try reactionOutboxRoom("Kill, then regret", comment: "react, crash, regret", on: server)
        let (ann, room, comment, environment) = (place.ann, place.room, place.comment, place.environment)
        // A first run keeps the room's copy for opening offline.
        let first = try open(room, as: ann, environment: environment)
        first.stop()
        // Killed after the reaction reached the server but before it was marked sent.
        let outbox = try outbox(of: ann, in: room, environment: environment)
        let reached = place.queuedReaction("👍")
        try outbox.queue(reached)
        try place.sendReaction("👍", transactionID: reached.txn)
        XCTAssertEqual(try place.annsReactions(), ["👍"])

        // Restarted offline: the room's copy does not know it is there; the reader takes it back.
        server.stop()
        let second = try open(room, as: ann, environment: environment)
        defer { second.stop() }
        XCTAssertEqual(second.toggleReaction("👍", on: comment), .removing, "it may be in the room: taken back, not cancelled")
        XCTAssertEqual(try outbox.unsent().compactMap(\.takesBack), [reached.txn], "the taking back is kept before anything is done")

        try server.start()
        let updates = try pump(second) { try place.annsReactions().isEmpty && outbox.unsent().isEmpty }
        XCTAssertEqual(try place.annsReactions(), [], "redacted")
        XCTAssertEqual(problems(updates), [])
    }

    func testOnOffOnWhileTheSendIsOnTheWireEndsOnOnceWithoutAnError() throws {
        let place = try reactionOutboxRoom("Dither", comment: "on, off, on", on: server)
        let (ann, room, comment, environment) = (place.ann, place.room, place.comment, place.environment)
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
        var updates = try pump(source) { try outbox.unsent().isEmpty && place.annsReactions() == ["🎉"] }
        Thread.sleep(forTimeInterval: 2)  // a second send or a late redaction would land by now
        updates += source.takeUpdates()
        XCTAssertEqual(try place.annsReactions(), ["🎉"], "on, once")
        XCTAssertEqual(problems(updates), [], "no error")
        XCTAssertEqual(source.reactors(of: comment).map(\.key), ["🎉"])
    }
}

/// A reaction the room has already (Synapse refuses a second with `M_DUPLICATE_ANNOTATION`) is
/// taken as sent, with the event the room has, so taking it back later redacts that one.
final class MatrixDuplicateReactionTests: OwnSynapseTestCase {
    func testAReactionTheRoomHasAlreadyCountsAsSentAndCanBeTakenBack() throws {
        let place = try reactionOutboxRoom("Twice", comment: "react from two places", on: server)
        let (ann, room, comment, environment) = (place.ann, place.room, place.comment, place.environment)
        try open(room, as: ann, environment: environment).stop()
        // Kept in the outbox offline, while another of Ann's sessions reacted the same.
        let outbox = try outbox(of: ann, in: room, environment: environment)
        try outbox.queue(place.queuedReaction("👍"))
        let there = try place.sendReaction("👍", transactionID: "elsewhere-\(UUID().uuidString)")
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
