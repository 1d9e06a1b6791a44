import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// Who reacted in a room, for F2's page: each key's senders as the room's reactions count them
/// (each once, a redacted reaction gone), against a real Synapse.
final class MatrixReactorsTests: SharedSynapseTestCase {
    private func reaction(to eventID: String, _ key: String) -> [String: Any] {
        ["m.relates_to": ["rel_type": "m.annotation", "event_id": eventID, "key": key]]
    }

    func testReactorsNameEachKeysSendersInTheOrderTheyReacted() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Who reacted", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: "react to this")
        try bo.other.send(roomID: room, content: reaction(to: comment, "👍"), type: "m.reaction")
        try ann.other.send(roomID: room, content: reaction(to: comment, "👍"), type: "m.reaction")
        let gone = try ann.other.send(roomID: room, content: reaction(to: comment, "🎉"), type: "m.reaction")
        try ann.other.redact(roomID: room, eventID: gone)
        try bo.other.send(roomID: room, content: reaction(to: comment, "🎉"), type: "m.reaction")
        let source = try open(room, as: ann, follows: false, usesCache: false)
        defer { source.stop() }
        let reactors = source.reactors(of: comment)
        XCTAssertEqual(reactors.map(\.key), ["👍", "🎉"])
        XCTAssertEqual(reactors.map(\.authors), [[bo.account.userID, ann.account.userID], [bo.account.userID]])
    }
}
