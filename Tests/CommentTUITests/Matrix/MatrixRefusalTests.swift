import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Comments a real Synapse refuses for good (too large, forbidden after a kick or by power
/// levels): refused before sending where we can know, else `not sent: <reason>` with keys to
/// retry, take back or discard; never blocking later sends or the read marker; kept as refused
/// across a restart. Keys are pressed a second apart, as a person would.
final class MatrixRefusalTests: SharedSynapseTestCase {
    /// Bo's room `name` with a post in it, Ann a member, and a data directory for Ann's client.
    private func roomWithAPost(_ name: String, on server: SynapseServer) throws
        -> (bo: MatrixTestUser, ann: MatrixTestUser, room: String, environment: [String: String]) {
        let (bo, ann, room) = try twoUsersInARoom(name, on: server)
        try bo.other.sendText(roomID: room, body: "post")
        return (bo, ann, room, temporaryDataEnvironment())
    }

    /// Power levels under which only Bo may post messages (`allowed` false), or anyone.
    private func setMessagesAllowed(_ allowed: Bool, by bo: MatrixTestUser, in room: String) throws {
        try bo.other.sendState(roomID: room, type: "m.room.power_levels", content: [
            // Room version 12: the creator's power is beyond the list, which must not name them.
            "users_default": 0, "events_default": 0, "state_default": 50,
            "ban": 50, "kick": 50, "redact": 50, "invite": 0, "events": ["m.room.message": allowed ? 0 : 50],
        ])
    }

    /// The event Ann's public read receipt is on, as Bo's sync sees it.
    private func receipt(of ann: MatrixTestUser, in room: String, seenBy bo: MatrixTestUser) throws -> String? {
        let sync = try bo.other.sync()
        let rooms = (sync["rooms"] as? [String: Any])?["join"] as? [String: Any]
        let events = ((rooms?[room] as? [String: Any])?["ephemeral"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        var newest: (String, Int)?
        for event in events where event["type"] as? String == "m.receipt" {
            for (eventID, kinds) in event["content"] as? [String: Any] ?? [:] {
                guard let read = (kinds as? [String: Any])?["m.read"] as? [String: Any],
                      let mine = read[ann.account.userID] as? [String: Any] else { continue }
                let ts = mine["ts"] as? Int ?? 0
                if newest.map({ ts >= $0.1 }) ?? true { newest = (eventID, ts) }
            }
        }
        return newest?.0
    }

    func testACommentOverTheEventLimitIsRefusedBeforeSendingWithTheDraftKept() throws {
        let server = try server
        let (_, ann, room, environment) = try roomWithAPost("Large", on: server)
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        let pilot = pilot(source, columns: 100, rows: 30)
        let large = String(repeating: "seventy kilobytes ", count: 4_000)
        pilot.send(.paste(large))
        pause(pilot, source)
        pilot.press(.enter)
        XCTAssertEqual(pilot.draftMarkdown, large, "the draft is kept")
        XCTAssertTrue(pilot.app.message?.contains("too long") == true, "\(pilot.app.message ?? "no message")")
        XCTAssertFalse(screenHas(pilot, "sending…"), "\(pilot.lines)")
        pause(pilot, source)
        XCTAssertFalse(try ann.other.messageBodies(roomID: room).contains(large), "never sent")
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty, "nothing waits to be sent")
    }

    func testACommentJustUnderTheLimitIsAcceptedBySynapse() throws {
        let server = try server
        let (_, ann, room, environment) = try roomWithAPost("Largest", on: server)
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        // As large as our check lets through: the envelope's allowance must cover what Synapse adds.
        let overhead = source.locked { source.messageContent("") }.serialized().count
        let body = String(repeating: "x", count: MatrixEventSize.contentLimit - overhead)
        XCTAssertEqual(source.locked { source.messageContent(body) }.serialized().count, MatrixEventSize.contentLimit)
        let sent = comment(by: ann, body)
        XCTAssertEqual(source.send(sent), .pending)
        let updates = try collectUpdates(from: source) { $0.contains {
            if case .sendConfirmed(sent.id) = $0 { return true }
            if case .sendFailed(sent.id, _) = $0 { return true }
            return false
        } }
        XCTAssertFalse(updates.contains { if case .sendFailed = $0 { true } else { false } }, "\(updates.map(describe))")
    }

    func testARefusedCommentBlocksNeitherLaterSendsNorTheReadMarkerAndStaysRefusedAfterARestart() throws {
        let server = try server
        let (bo, ann, room, environment) = try roomWithAPost("Refused", on: server)
        var source = try open(room, as: ann, environment: environment)
        var pilot = pilot(source, columns: 100, rows: 30)
        try setMessagesAllowed(false, by: bo, in: room)
        pilot.type("refused by power levels")
        pause(pilot, source)
        pilot.press(.enter)
        try pump(pilot, source, "the refusal") { screenHas(pilot, "not sent: forbidden") }
        XCTAssertTrue(pilot.app.message?.contains("Alt-X") == true, "the keys are said: \(pilot.app.message ?? "")")

        // Others' comments arrive above it; read at the bottom, the marker and receipt follow.
        try bo.other.sendText(roomID: room, body: "from bo, one")
        let newest = try bo.other.sendText(roomID: room, body: "from bo, two")
        try pump(pilot, source, "bo's comments") { screenHas(pilot, "from bo, two") }
        var marker: String?
        for _ in 0..<100 where marker != newest {
            pause(pilot, source)
            marker = try ann.client.fullyRead(room: room, userID: ann.account.userID)
        }
        XCTAssertEqual(marker, newest, "the read marker moves past the refused comment")
        XCTAssertEqual(try receipt(of: ann, in: room, seenBy: bo), newest, "so does the read receipt")

        // A later comment still goes while the refused one sits there.
        try setMessagesAllowed(true, by: bo, in: room)
        pilot.type("a later comment")
        pause(pilot, source)
        pilot.press(.enter)
        try pump(pilot, source, "the later comment posted") { try ann.other.messageBodies(roomID: room).contains("a later comment") }
        try pump(pilot, source, "the later comment confirmed") { pilot.lines.filter { $0.contains("sending…") }.isEmpty }
        XCTAssertTrue(screenHas(pilot, "not sent: forbidden"), "\(pilot.lines)")

        // After a restart it is still not sent, with its keys, and not sent blindly (it would
        // go through now that messages are allowed).
        source.stop()
        source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        pilot = self.pilot(source, columns: 100, rows: 30)
        XCTAssertTrue(screenHas(pilot, "not sent: forbidden"), "\(pilot.lines)")
        XCTAssertFalse(screenHas(pilot, "sending…"), "\(pilot.lines)")
        for _ in 0..<3 { pause(pilot, source) }
        XCTAssertFalse(try ann.other.messageBodies(roomID: room).contains("refused by power levels"), "not retried blindly")

        // Alt-X twice (none selected) discards it: gone from the feed and from the outbox, also
        // after the next restart.
        pilot.press(KeyPress(.character("x"), .alt))
        pause(pilot, source)
        XCTAssertTrue(screenHas(pilot, "refused by power levels"), "one key discards nothing: \(pilot.lines)")
        pilot.press(KeyPress(.character("x"), .alt))
        pause(pilot, source)
        XCTAssertFalse(screenHas(pilot, "refused by power levels"), "\(pilot.lines)")
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
        source.stop()
        source = try open(room, as: ann, environment: environment)
        pilot = self.pilot(source, columns: 100, rows: 30)
        XCTAssertFalse(screenHas(pilot, "refused by power levels"), "\(pilot.lines)")
        XCTAssertFalse(try ann.other.messageBodies(roomID: room).contains("refused by power levels"))
    }

    func testAfterAKickACommentIsNotSentAndGoesOnRetryOnceRejoinedOrComesBackToTheComposer() throws {
        let server = try server
        let (bo, ann, room, environment) = try roomWithAPost("Kicked", on: server)
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        let pilot = pilot(source, columns: 100, rows: 30)
        try bo.other.call("POST", "/_matrix/client/v3/rooms/\(room.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/kick",
                          body: ["user_id": ann.account.userID, "reason": "testing"])
        pilot.type("written after the kick")
        pause(pilot, source)
        pilot.press(.enter)
        try pump(pilot, source, "the refusal") { screenHas(pilot, "not sent: forbidden") }
        pilot.type("also refused")
        pause(pilot, source)
        pilot.press(.enter)
        try pump(pilot, source, "the second refusal") { pilot.lines.filter { $0.hasPrefix(" ann-") && $0.contains("not sent: forbidden") }.count == 2 }

        // Alt-T on the selected one takes it back into the composer (the other stays).
        pilot.press(.altUp)
        pause(pilot, source)
        XCTAssertTrue(pilot.selectedCommentIndex.map { pilot.unconfirmedComments[pilot.comment(at: $0)!.id] != nil } == true)
        pilot.press(KeyPress(.character("t"), .alt))
        // Before the outbox lets go of it the draft on disk holds it: no debounced save to wait for.
        let saved = try XCTUnwrap(try source.draftFile?.load(), "the draft is saved at once")
        XCTAssertEqual(try ComposerDocument(decoding: saved).markdown, "also refused")
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().count, 1)
        pause(pilot, source)
        XCTAssertEqual(pilot.draftMarkdown, "also refused")
        XCTAssertFalse(pilot.lines.dropLast(3).contains { $0.contains("also refused") }, "\(pilot.lines)")
        XCTAssertEqual(try outbox(of: ann, in: room, environment: environment).unsent().map(\.body), ["written after the kick"])
        pilot.press(KeyPress(.character("u"), .ctrl))
        pause(pilot, source)

        // Back in the room, Enter on the empty composer sends it again: posted once.
        try bo.other.invite(roomID: room, userID: ann.account.userID)
        _ = try ann.other.join(room)
        pilot.press(.enter)
        try pump(pilot, source, "the retry posted") { try ann.other.messageBodies(roomID: room).contains("written after the kick") }
        try pump(pilot, source, "the retry confirmed") { !screenHas(pilot, "not sent") && !screenHas(pilot, "sending…") }
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "written after the kick" }.count, 1)
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty)
    }

    func testCommentsSentAfterTheSessionEndedStayQueuedAndItIsSaidOnce() throws {
        let server = try server
        let (_, ann, room, environment) = try roomWithAPost("Signed out", on: server)
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        let pilot = pilot(source, columns: 100, rows: 30)
        // Logged out elsewhere: every request of this device is answered 401 M_UNKNOWN_TOKEN.
        try ann.other.call("POST", "/_matrix/client/v3/logout", body: [:])
        pilot.type("after the logout")
        pause(pilot, source)
        pilot.press(.enter)
        try pump(pilot, source, "the log-in message") { pilot.app.message?.contains("log in again") == true }
        pilot.type("and another")
        pause(pilot, source)
        pilot.press(.enter)
        var said: [String] = []
        for _ in 0..<3 {
            Thread.sleep(forTimeInterval: 1)
            for case .problem(let problem) in source.takeUpdates() { said.append(problem.message) }
        }
        XCTAssertEqual(said, [], "said once, not for every comment")
        XCTAssertFalse(screenHas(pilot, "not sent"), "\(pilot.lines)")
        XCTAssertTrue(source.notSentReasons.isEmpty, "\(source.notSentReasons)")
        let waiting = try outbox(of: ann, in: room, environment: environment).unsent()
        XCTAssertEqual(waiting.map(\.body), ["after the logout", "and another"])
        XCTAssertEqual(waiting.map(\.notSent), [nil, nil], "queued for the next start, not refused")
    }
}
