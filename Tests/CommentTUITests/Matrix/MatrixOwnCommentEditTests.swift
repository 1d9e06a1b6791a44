import Foundation
import XCTest
import SynapseFixture
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// Editing and deleting our own comment in a room, against the real Synapse: another client
/// reads our edit as an `m.replace` with the new text (and the `* ` fallback), our deletion as a
/// redaction; our feed shows both at once and the sync's echo changes nothing more.
final class MatrixOwnCommentEditTests: SharedSynapseTestCase {
    /// The first event in bo's view of the room that `matches`, waited for (bounded).
    private func event(in room: String, seenBy bo: MatrixTestUser, _ what: String,
                       matching matches: ([String: Any]) -> Bool) throws -> [String: Any] {
        var found: [String: Any]?
        let deadline = Date().addingTimeInterval(20)
        while found == nil, Date() < deadline {
            found = try bo.other.messages(roomID: room).first(where: matches)
            if found == nil { Thread.sleep(forTimeInterval: 0.2) }
        }
        return try XCTUnwrap(found, "\(what) did not reach another client")
    }

    func testOurEditArrivesAsAReplaceAndOurDeletionAsARedaction() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Edits", on: server)
        let state = try temporaryDirectory(self).path
        let source = try open(room, as: ann, environment: ["XDG_DATA_HOME": state])
        defer { source.stop() }
        let pilot = pilot(source)
        pilot.type("teh plan")
        pilot.press(KeyPress(.enter))
        try pump(pilot, source, "our comment posted") { pilot.app.unconfirmedComments.isEmpty && screenHas(pilot, "teh plan") }
        let original = try event(in: room, seenBy: bo, "our comment") { ($0["content"] as? [String: Any])?["body"] as? String == "teh plan" }
        let originalID = try XCTUnwrap(original["event_id"] as? String)

        pilot.type("a draft")
        pause(pilot, source)
        pilot.press(KeyPress(.up, .alt))
        pause(pilot, source)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.draft, "teh plan")
        pause(pilot, source)
        pilot.press(.ctrl("a"))
        pilot.press(KeyPress(.delete)); pilot.press(KeyPress(.delete)); pilot.press(KeyPress(.delete))
        pilot.type("the")
        pause(pilot, source)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "edited")
        XCTAssertEqual(pilot.app.draft, "a draft")
        XCTAssertTrue(screenHas(pilot, "  the plan") && !screenHas(pilot, "teh plan"), "shown at once: \(pilot.lines)")

        let edit = try event(in: room, seenBy: bo, "our edit") {
            (($0["content"] as? [String: Any])?["m.relates_to"] as? [String: Any])?["rel_type"] as? String == "m.replace"
        }
        let content = try XCTUnwrap(edit["content"] as? [String: Any])
        XCTAssertEqual(edit["type"] as? String, "m.room.message")
        XCTAssertEqual((content["m.relates_to"] as? [String: Any])?["event_id"] as? String, originalID)
        XCTAssertEqual(content["body"] as? String, "* the plan", "the fallback for clients without edits")
        let new = try XCTUnwrap(content["m.new_content"] as? [String: Any])
        XCTAssertEqual(new["body"] as? String, "the plan")
        XCTAssertEqual(new["msgtype"] as? String, "m.text")
        XCTAssertNil(new["m.relates_to"])
        XCTAssertEqual(content["m.mentions"] as? [String: Any] as NSDictionary?, [:] as NSDictionary, "nobody newly mentioned")

        // The sync's echo of our edit: still one comment, edited once.
        pause(pilot, source); pause(pilot, source)
        XCTAssertEqual(pilot.lines.filter { $0.hasSuffix("  the plan") }.count, 1, "\(pilot.lines)")
        XCTAssertTrue(pilot.lines.contains { $0.contains("edited") && !$0.hasPrefix("›") })

        pilot.press(.alt("w"))
        XCTAssertEqual(pilot.app.message, "delete your comment? y/n")
        pause(pilot, source)
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.message, "deleted")
        XCTAssertTrue(screenHas(pilot, "(deleted)"), "\(pilot.lines)")
        let redaction = try event(in: room, seenBy: bo, "our redaction") { $0["type"] as? String == "m.room.redaction" }
        let redacts = (redaction["redacts"] as? String) ?? ((redaction["content"] as? [String: Any])?["redacts"] as? String)
        XCTAssertEqual(redacts, originalID)
        XCTAssertEqual(redaction["sender"] as? String, ann.account.userID)
        pause(pilot, source); pause(pilot, source)
        XCTAssertTrue(screenHas(pilot, "(deleted)"), "\(pilot.lines)")
        XCTAssertFalse(screenHas(pilot, "the plan"), "\(pilot.lines)")
        XCTAssertNil(source.outboxPath.flatMap { FileManager.default.contents(atPath: $0) }, "nothing waits in the outbox")
    }

    /// An edit whose answer never came (the server took it, then the network went) waits in the
    /// outbox; the next start sends it again under the same transaction id: one edit in the room.
    func testAnEditMadeOfflineIsSentAtTheNextStartAndOnlyOnce() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Offline edit", on: server)
        let environment = ["XDG_DATA_HOME": try temporaryDirectory(self).path]
        let first = try open(room, as: ann, environment: environment)
        let pilot = pilot(first)
        pilot.type("teh plan")
        pilot.press(KeyPress(.enter))
        try pump(pilot, first, "our comment posted") { pilot.app.unconfirmedComments.isEmpty && screenHas(pilot, "teh plan") }
        let originalID = try XCTUnwrap(try event(in: room, seenBy: bo, "our comment") {
            ($0["content"] as? [String: Any])?["body"] as? String == "teh plan"
        }["event_id"] as? String)

        // The first attempt reaches Synapse but its answer is lost; after it the network is gone.
        let reachedOnce = NSLock()
        nonisolated(unsafe) var reached = false
        first.sendAttempt = { client, room, type, transactionID, content, timeout in
            let send = reachedOnce.withLock { () -> Bool in defer { reached = true }; return !reached }
            if send { _ = try client.send(room: room, type: type, transactionID: transactionID, content: content, timeout: timeout) }
            throw MatrixError(.unreachable, "the network is gone")
        }
        pause(pilot, first)
        pilot.press(KeyPress(.up, .alt))
        pause(pilot, first)
        pilot.press(.alt("c"))
        pilot.press(.ctrl("a"))
        pilot.press(KeyPress(.delete)); pilot.press(KeyPress(.delete)); pilot.press(KeyPress(.delete))
        pilot.type("the")
        pause(pilot, first)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "edited")
        XCTAssertTrue(screenHas(pilot, "  the plan"), "shown at once, offline too: \(pilot.lines)")
        pause(pilot, first); pause(pilot, first)
        XCTAssertTrue(reachedOnce.withLock { reached })
        let waiting = try CommentOutbox(files: XCTUnwrap(MatrixThreadSource.stateFiles(me: ann.account.userID, roomID: room,
                                                                                        environment: environment))).unsent()
        XCTAssertEqual(waiting.map(\.replaces), [originalID], "the edit waits in the outbox")
        first.stop()   // the client ends (a crash keeps the same: the outbox was fsynced first)

        let second = try open(room, as: ann, environment: environment)
        defer { second.stop() }
        let outbox = try XCTUnwrap(second.outboxPath)
        let deadline = Date().addingTimeInterval(20)
        while FileManager.default.fileExists(atPath: outbox), Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: outbox), "sent at the next start, the outbox is empty")
        let edits = try bo.other.messages(roomID: room).filter {
            (($0["content"] as? [String: Any])?["m.relates_to"] as? [String: Any])?["rel_type"] as? String == "m.replace"
        }
        XCTAssertEqual(edits.count, 1, "one edit in the room: \(edits)")
        XCTAssertEqual(second.unsentComments, [], "an edit waiting is no comment of its own")
    }

    /// A room switched to encryption gets no edit and no redaction of ours: the app says why.
    func testNoEditOrDeletionGoesIntoAnEncryptedRoom() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Encrypted later", on: server)
        let source = try open(room, as: ann, environment: ["XDG_DATA_HOME": try temporaryDirectory(self).path])
        defer { source.stop() }
        let pilot = pilot(source)
        pilot.type("teh plan")
        pilot.press(KeyPress(.enter))
        try pump(pilot, source, "our comment posted") { pilot.app.unconfirmedComments.isEmpty && screenHas(pilot, "teh plan") }
        _ = try bo.other.sendState(roomID: room, type: "m.room.encryption", content: ["algorithm": "m.megolm.v1.aes-sha2"])
        try pump(pilot, source, "the switch seen") { source.sendingHeld != nil }
        pause(pilot, source)
        pilot.press(KeyPress(.up, .alt))
        // The switch's row is newest: our comment is the one above it.
        var selectedBody: String? { pilot.app.selectedCommentIndex.flatMap { pilot.app.comment(at: $0)?.body } }
        if selectedBody != "teh plan" { pilot.press(KeyPress(.up, .alt)) }
        XCTAssertEqual(selectedBody, "teh plan")
        pause(pilot, source)
        pilot.press(.alt("c"))
        pilot.type(" fixed")
        pause(pilot, source)
        pilot.press(KeyPress(.enter))
        XCTAssertEqual(pilot.app.message, "not edited, the edit is kept: " + MatrixEncryption.refusal.message)
        XCTAssertEqual(pilot.app.draft, "teh plan fixed", "the edit stays in the composer")
        pilot.press(KeyPress(.escape))
        pause(pilot, source)
        pilot.press(.alt("w"))
        pilot.press(KeyPress(.character("y")))
        XCTAssertEqual(pilot.app.message, "not deleted: " + MatrixEncryption.refusal.message)
        pause(pilot, source)
        let events = try bo.other.messages(roomID: room)
        XCTAssertFalse(events.contains { $0["type"] as? String == "m.room.redaction" }, "no redaction")
        XCTAssertFalse(events.contains { (($0["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]) != nil }, "no edit")
    }

    /// An edit that adds a mention pings only the one added: its `m.mentions` names Carol, not
    /// Bo whom the comment mentioned before; the new content names both, as a send would.
    func testAnEditsMentionsNameOnlyThoseItAdds() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Mentions edited", on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        let source = try open(room, as: ann, environment: ["XDG_DATA_HOME": try temporaryDirectory(self).path])
        defer { source.stop() }
        try collectUpdates(from: source) { _ in source.reader.id == ann.account.userID && source.locked { source.timeline.members.userID(handle: carol.localpart) } != nil }
        let comment = Comment(id: "c-mentions", author: ann.account.userID, created: Date(), body: "ask @\(bo.localpart)")
        XCTAssertEqual(source.send(comment), .pending)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed("c-mentions") = $0 { true } else { false } } }
        let change = CommentChange(comment: comment.id, author: ann.account.userID, created: Date(),
                                   kind: .edit(body: "ask @\(bo.localpart) and @\(carol.localpart)"))
        XCTAssertNil(source.change(change, of: comment))
        let edit = try event(in: room, seenBy: bo, "the edit") {
            (($0["content"] as? [String: Any])?["m.relates_to"] as? [String: Any])?["rel_type"] as? String == "m.replace"
        }
        let content = try XCTUnwrap(edit["content"] as? [String: Any])
        XCTAssertEqual((content["m.mentions"] as? [String: Any])?["user_ids"] as? [String], [carol.account.userID])
        let new = try XCTUnwrap(content["m.new_content"] as? [String: Any])
        XCTAssertEqual(Set((new["m.mentions"] as? [String: Any])?["user_ids"] as? [String] ?? []), [bo.account.userID, carol.account.userID])
        XCTAssertEqual(new["body"] as? String, "ask Bo and Carol")
        XCTAssertEqual(content["body"] as? String, "* ask Bo and Carol")
        let html = try XCTUnwrap(content["formatted_body"] as? String)
        XCTAssertTrue(html.hasPrefix("* ") && html.contains("https://matrix.to/#/\(carol.account.userID)"), html)
    }
}
