import Foundation
import XCTest
import SynapseFixture
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// An edit of ours the real Synapse refuses for good (the account lost the power to send
/// messages): the screen goes back to the comment as the room has it, the status bar says why,
/// and nothing is left in the outbox to be sent again.
final class MatrixOwnCommentRefusalTests: SharedSynapseTestCase {
    func testAnEditTheServerRefusesIsUndoneAndLeavesTheOutbox() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Refused edit", on: server)
        let environment = temporaryDataEnvironment()
        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        let pilot = pilot(source)
        pilot.type("teh plan")
        pilot.press(KeyPress(.enter))
        try pump(pilot, source, "our comment posted") { pilot.app.unconfirmedComments.isEmpty && screenHas(pilot, "teh plan") }
        // Only Bo may send messages now: Ann's edit is forbidden.
        try bo.other.sendState(roomID: room, type: "m.room.power_levels", content: [
            "users_default": 0, "events_default": 0, "state_default": 50,
            "ban": 50, "kick": 50, "redact": 50, "invite": 0, "events": ["m.room.message": 50],
        ])
        pause(pilot, source)
        pilot.press(KeyPress(.up, .alt))
        pause(pilot, source)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.draft, "teh plan")
        pilot.type("!")
        pause(pilot, source)
        pilot.press(KeyPress(.enter))
        try pump(pilot, source, "the refusal") { pilot.app.message?.contains("was not sent") == true }
        pause(pilot, source)
        XCTAssertTrue(screenHas(pilot, "teh plan") && !screenHas(pilot, "teh plan!"), "the edit is undone: \(pilot.lines)")
        XCTAssertEqual(pilot.app.allComments.last?.body, "teh plan")
        XCTAssertNil(pilot.app.allComments.last?.edited)
        XCTAssertTrue(try outbox(of: ann, in: room, environment: environment).unsent().isEmpty, "nothing is left to send again")
    }

    /// Our emote and our image, sent from another client: an edit would make them `m.text`, so
    /// Alt-C refuses with the reason and the draft stays.
    func testAnEmoteOrMediaOfOursIsNotEdited() throws {
        let server = try server
        let (_, ann, room) = try twoUsersInARoom("Emote", on: server)
        try ann.other.send(roomID: room, content: ["msgtype": "m.emote", "body": "waves"])
        try ann.other.send(roomID: room, content: ["msgtype": "m.image", "body": "cat.png", "url": "mxc://example.org/cat"])
        try ann.other.sendText(roomID: room, body: "plain words")
        let source = try open(room, as: ann, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let pilot = pilot(source)
        try pump(pilot, source, "the three messages") { screenHas(pilot, "plain words") && screenHas(pilot, "cat.png") }
        pilot.type("a draft")
        pause(pilot, source)
        pilot.press(KeyPress(.up, .alt))   // plain words
        pilot.press(KeyPress(.up, .alt))   // the image
        pause(pilot, source)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.message, "only a text message can be edited here")
        XCTAssertEqual(pilot.app.draft, "a draft")
        pause(pilot, source)
        pilot.press(KeyPress(.up, .alt))   // the emote
        pause(pilot, source)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.message, "only a text message can be edited here")
        XCTAssertEqual(pilot.app.draft, "a draft")
        // Nor through the source directly.
        let emote = try XCTUnwrap(pilot.app.selectedCommentID.flatMap { id in pilot.app.allComments.first { $0.id == id } })
        let change = CommentChange(comment: emote.id, author: ann.account.userID, created: Date(), kind: .edit(body: "dances"))
        XCTAssertEqual(source.change(change, of: emote)?.message, "only a text message can be edited here")
        pause(pilot, source)
        pilot.press(KeyPress(.down, .alt)); pilot.press(KeyPress(.down, .alt))   // plain words
        pause(pilot, source)
        pilot.press(.alt("c"))
        XCTAssertEqual(pilot.app.draft, "plain words", "a text message is edited")
    }
}
