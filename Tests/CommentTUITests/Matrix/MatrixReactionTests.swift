import Foundation
import XCTest
import SynapseFixture
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// Reactions in a room, against the real Synapse: another client's `m.reaction` events counted
/// on the comment they annotate, live, on the opening page and older pages, a redacted one gone.
final class MatrixReactionTests: SharedSynapseTestCase {
    /// An `m.reaction`'s content, as Element sends it.
    private func reaction(to eventID: String, _ key: String) -> [String: Any] {
        ["m.relates_to": ["rel_type": "m.annotation", "event_id": eventID, "key": key]]
    }

    /// The counts last reported for a comment, as `describe` writes them (`👍2*`: ours among them).
    private func latest(_ updates: [ThreadUpdate], of id: String) -> String? {
        updates.last {
            switch $0 {
            case .reactionsChanged(id, _), .reactionsKnown(id, _): true
            default: false
            }
        }.map(describe)
    }

    /// Bo's room with a post, Ann (who reads here) and Carol members.
    private func room(_ name: String, on server: SynapseServer) throws -> (bo: MatrixTestUser, ann: MatrixTestUser, carol: MatrixTestUser, room: String) {
        let (bo, ann, room) = try twoUsersInARoom(name, on: server)
        let carol = try registerUser("carol", displayName: "Carol", on: server)
        _ = try carol.other.join(room)
        try bo.other.sendText(roomID: room, body: "post")
        return (bo, ann, carol, room)
    }

    func testReactionsFromOtherClientsCountOnTheirCommentLiveOursMarkedAndARedactedOneGoes() throws {
        let server = try server
        let (bo, ann, carol, room) = try room("Reactions live", on: server)
        let first = try bo.other.sendText(roomID: room, body: "first")
        let second = try bo.other.sendText(roomID: room, body: "second")
        try carol.other.send(roomID: room, content: reaction(to: first, "👍"), type: "m.reaction")
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let opening = try collectUpdates(from: source) { self.latest($0, of: first) != nil }
        XCTAssertEqual(latest(opening, of: first), "reactions \(first) 👍1", "the opening page's reaction")
        XCTAssertNil(latest(opening, of: second))

        let bosThumb = try bo.other.send(roomID: room, content: reaction(to: first, "👍"), type: "m.reaction")
        // Ours, from another of Ann's clients.
        try ann.other.send(roomID: room, content: reaction(to: first, "👍"), type: "m.reaction")
        try bo.other.send(roomID: room, content: reaction(to: second, "🎉"), type: "m.reaction")
        let live = try collectUpdates(from: source) {
            self.latest($0, of: second) != nil && self.latest($0, of: first) == "reactions \(first) 👍3*"
        }
        XCTAssertEqual(latest(live, of: second), "reactions \(second) 🎉1", "on the comment it annotates, not ours")

        try bo.other.redact(roomID: room, eventID: bosThumb)
        let redacted = try collectUpdates(from: source) { self.latest($0, of: first) != nil }
        XCTAssertEqual(latest(redacted, of: first), "reactions \(first) 👍2*", "Bo's redacted reaction is gone")
    }

    /// A comment older than the opening page gets its reactions when its page comes: those in
    /// its page, and one in the opening page that came before it; a redacted one never counts.
    func testAnOlderPagesCommentCountsItsReactionsFromItsPageAndTheOpeningPage() throws {
        let server = try server
        let (bo, ann, carol, room) = try room("Reactions older", on: server)
        let old = try bo.other.sendText(roomID: room, body: "old")
        try carol.other.send(roomID: room, content: reaction(to: old, "🎉"), type: "m.reaction")
        let taken = try bo.other.send(roomID: room, content: reaction(to: old, "🎉"), type: "m.reaction")
        try bo.other.redact(roomID: room, eventID: taken)
        for n in 1...(MatrixThreadSource.pageSize + 10) { try bo.other.sendText(roomID: room, body: "filler \(n)") }
        try carol.other.send(roomID: room, content: reaction(to: old, "👀"), type: "m.reaction")
        let source = try open(room, as: ann, follows: false, usesCache: false)
        defer { source.stop() }
        XCTAssertFalse(source.opened.comments.contains { $0.id == old }, "the comment is in an older page")
        var updates: [ThreadUpdate] = []
        for _ in 0..<5 where source.hasOlderComments && !updates.contains(where: { $0.olderList.contains { $0.id == old } }) {
            source.loadOlderComments()
            updates += try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } }
        }
        XCTAssertTrue(updates.contains { $0.olderList.contains { $0.id == old } }, "the old comment was loaded")
        XCTAssertEqual(latest(updates, of: old), "reactions \(old) 🎉1 👀1")
    }

    /// The app over the room: a reaction from another client shows under its comment, live,
    /// and goes when it is redacted; a person's pauses between the steps.
    func testTheAppShowsAReactionUnderItsCommentLiveAndTakesItAwayWhenRedacted() throws {
        let server = try server
        let (bo, ann, carol, room) = try room("Reactions shown", on: server)
        let look = try bo.other.sendText(roomID: room, body: "look at this")
        try bo.other.sendText(roomID: room, body: "and this")
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let pilot = pilot(source)
        pause(pilot, source)
        let party = try carol.other.send(roomID: room, content: reaction(to: look, "🎉"), type: "m.reaction")
        pump(pilot, source, "the reaction showing") { screenHas(pilot, "🎉 1") }
        let text = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("look at this") })
        XCTAssertEqual(pilot.lines[text + 1], "   🎉 1", "under the comment it annotates: \(pilot.lines)")
        XCTAssertTrue(pilot.lines[text + 3].contains("Bo"), "the next comment follows a blank row after it: \(pilot.lines)")
        pause(pilot, source)
        try carol.other.redact(roomID: room, eventID: party)
        pump(pilot, source, "the redacted reaction going") { !screenHas(pilot, "🎉") }
        XCTAssertEqual(pilot.lines[text + 1], "", "the row is gone with it: \(pilot.lines)")
    }

    /// The app flow, a person's pauses between keys: Alt-Up selects Bo's comment, Alt-K opens
    /// the picker, 4 picks 🎉: Bo's client sees our `m.reaction` on his comment, and our row shows
    /// it as ours; Alt-K, `:tada:` and Enter take it back: Bo's client sees the redaction.
    func testOurReactionTogglesOnAndOffAndTheOtherClientSeesTheEventAndItsRedaction() throws {
        let server = try server
        let (bo, ann, _, room) = try room("Reactions toggled", on: server)
        let comment = try bo.other.sendText(roomID: room, body: "shall we?")
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let pilot = pilot(source)
        pause(pilot, source)
        pilot.press(.altUp)
        pause(pilot, source)
        pilot.feed("\u{1B}k")
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("react: 1👍 2❤ 3😂 4🎉 5👀 ›") }, "the picker: \(pilot.lines)")
        pause(pilot, source)
        pilot.type("4")
        pump(pilot, source, "our reaction showing") { screenHas(pilot, "🎉 1") }
        let text = try XCTUnwrap(pilot.lines.firstIndex { $0.contains("shall we?") })
        let row = text + 1
        XCTAssertEqual(pilot.lines[row], "▌  🎉 1", "under the comment, still selected")
        XCTAssertTrue(pilot.screen.screen[3, row].style.attributes.contains(.reverse), "ours, marked")
        let reaction = try XCTUnwrap(bo.other.messages(roomID: room).first { $0["type"] as? String == "m.reaction" }, "Bo's client sees it")
        XCTAssertEqual(reaction["sender"] as? String, ann.account.userID)
        let relation = try XCTUnwrap((reaction["content"] as? [String: Any])?["m.relates_to"] as? [String: Any])
        XCTAssertEqual(relation["rel_type"] as? String, "m.annotation")
        XCTAssertEqual(relation["event_id"] as? String, comment)
        XCTAssertEqual(relation["key"] as? String, "🎉")

        pause(pilot, source)
        pilot.feed("\u{1B}k")
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("react: 1🎉 2👍") }, "the recent key first: \(pilot.lines)")
        pause(pilot, source)
        pilot.type(":tada:")
        pause(pilot, source)
        pilot.press(KeyPress(.enter))
        pump(pilot, source, "our reaction going") { !screenHas(pilot, "🎉 1") }
        XCTAssertEqual(pilot.lines[row], "▌", "the row is gone: \(pilot.lines)")
        let reactionID = try XCTUnwrap(reaction["event_id"] as? String)
        let events = try bo.other.messages(roomID: room)
        XCTAssertTrue(events.contains {
            $0["type"] as? String == "m.room.redaction"
                && ($0["redacts"] as? String ?? ($0["content"] as? [String: Any])?["redacts"] as? String) == reactionID
        }, "Bo's client sees our reaction redacted")
        XCTAssertEqual(events.filter { $0["type"] as? String == "m.reaction" }.count, 1, "one reaction was ever sent")
    }

    /// The offline copy keeps the reactions to its comments: a room opened from it shows them
    /// at once, and a redaction arriving later still takes one away.
    func testTheOfflineCopyKeepsTheReactionsToItsComments() throws {
        let server = try server
        let (bo, ann, carol, room) = try room("Reactions kept", on: server)
        let comment = try bo.other.sendText(roomID: room, body: "keep me")
        let thumb = try carol.other.send(roomID: room, content: reaction(to: comment, "👍"), type: "m.reaction")
        try bo.other.send(roomID: room, content: reaction(to: comment, "👍"), type: "m.reaction")
        let environment = temporaryDataEnvironment()
        let first = try open(room, as: ann, environment: environment)
        try collectUpdates(from: first) { self.latest($0, of: comment) == "reactions \(comment) 👍2" }
        first.stop()

        let again = try open(room, as: ann, follows: false, environment: environment)
        XCTAssertTrue(again.isFromCache)
        let opened = try collectUpdates(from: again) { self.latest($0, of: comment) != nil }
        XCTAssertEqual(latest(opened, of: comment), "reactions \(comment) 👍2", "shown from the copy")
        again.stop()

        try carol.other.redact(roomID: room, eventID: thumb)
        let live = try open(room, as: ann, environment: environment)
        defer { live.stop() }
        let caughtUp = try collectUpdates(from: live) { self.latest($0, of: comment) == "reactions \(comment) 👍1" }
        XCTAssertEqual(latest(caughtUp, of: comment), "reactions \(comment) 👍1", "the redaction met while away takes it away")
    }

    /// Our toggle counts once the server answers, before any sync brings its echo: a second
    /// toggle at once takes back what the first sent (here no sync runs at all). (A second one
    /// before the server answered cancels the first: `MatrixReactionOutboxTests`.)
    func testOurToggleCountsWhenTheServerAnswersSoASecondOneAtOnceTakesItBack() throws {
        let server = try server
        let (bo, ann, _, room) = try room("Reactions answered", on: server)
        let comment = try bo.other.sendText(roomID: room, body: "quick")
        let source = try open(room, as: ann, follows: false, usesCache: false)
        defer { source.stop() }
        XCTAssertEqual(source.toggleReaction("🚀", on: comment), .adding)
        let added = try collectUpdates(from: source) { self.latest($0, of: comment) != nil }
        XCTAssertEqual(latest(added, of: comment), "reactions \(comment) 🚀1*")
        XCTAssertEqual(source.toggleReaction("🚀", on: comment), .removing)
        let removed = try collectUpdates(from: source) { self.latest($0, of: comment) != nil }
        XCTAssertEqual(latest(removed, of: comment), "reactions \(comment) ")
        let events = try bo.other.messages(roomID: room)
        let sent = try XCTUnwrap(events.first { $0["type"] as? String == "m.reaction" }?["event_id"] as? String)
        XCTAssertTrue(events.contains { $0["type"] as? String == "m.room.redaction"
            && ($0["redacts"] as? String ?? ($0["content"] as? [String: Any])?["redacts"] as? String) == sent })
    }

    /// In an encrypted room nothing is sent: the toggle says why.
    func testNoReactionIsSentIntoAnEncryptedRoom() throws {
        let server = try server
        let (bo, ann, _, room) = try room("Reactions encrypted", on: server)
        let comment = try bo.other.sendText(roomID: room, body: "secret soon")
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: ["algorithm": "m.megolm.v1.aes-sha2"])
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        guard case .refused(let reason) = source.toggleReaction("👍", on: comment) else { return XCTFail("a reaction was sent") }
        XCTAssertTrue(reason.contains("encrypted"), reason)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try bo.other.messages(roomID: room).contains { $0["type"] as? String == "m.reaction" })
    }

    /// Encrypted after the room was opened, with no sync to say so: the toggle, taken in good
    /// faith, asks the server right before sending, so neither a reaction nor a redaction goes.
    func testAReactionIsNotSentNorTakenBackWhenTheRoomWasEncryptedSinceOpening() throws {
        let server = try server
        let (bo, ann, _, room) = try room("Reactions encrypted later", on: server)
        let comment = try bo.other.sendText(roomID: room, body: "secret later")
        let source = try open(room, as: ann, follows: false, usesCache: false)
        defer { source.stop() }
        XCTAssertEqual(source.toggleReaction("👍", on: comment), .adding)
        try collectUpdates(from: source) { self.latest($0, of: comment) == "reactions \(comment) 👍1*" }
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: ["algorithm": "m.megolm.v1.aes-sha2"])
        XCTAssertEqual(source.toggleReaction("🎉", on: comment), .adding, "the switch is not known yet")
        let taken = source.toggleReaction("👍", on: comment)
        XCTAssertTrue(taken == .removing || taken == .refused(MatrixEncryption.notice), "\(taken)")
        let refused = try collectUpdates(from: source) { $0.contains { if case .problem = $0 { true } else { false } } }
        XCTAssertTrue(refused.contains { if case .problem(let problem) = $0 { problem.message.contains("encrypted") } else { false } },
                      "\(refused.map(describe))")
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice, "the switch is known now")
        Thread.sleep(forTimeInterval: 1)
        let events = try bo.other.messages(roomID: room)
        XCTAssertEqual(events.filter { $0["type"] as? String == "m.reaction" }.count, 1, "only the one sent before the switch")
        XCTAssertFalse(events.contains { $0["type"] as? String == "m.room.redaction" }, "nor a redaction after it")
    }
}

extension ThreadUpdate {
    /// The comments an older page brings, if it is one.
    var olderList: [Comment] { if case .olderComments(let list, _) = self { list } else { [] } }
}
