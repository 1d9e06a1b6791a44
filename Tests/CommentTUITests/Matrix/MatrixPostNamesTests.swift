import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// An older page of a post names its senders against the real Synapse: a reply by someone who
/// left the room before the post opened shows their name, asked of their profile.
final class MatrixPostNamesTests: SharedSynapseTestCase {
    func testAnOlderPageNamesAReplierWhoLeft() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Post names", on: server)
        let cy = try registerUser("cy", displayName: "Cy Departed", on: server)
        _ = try cy.other.join(room)
        let root = try bo.other.sendText(roomID: room, body: "A post")
        func reply(by user: MatrixTestUser, _ body: String) throws {
            try user.other.send(roomID: room, content: [
                "msgtype": "m.text", "body": body,
                "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
            ])
        }
        try reply(by: cy, "an early word")
        try cy.other.leave(roomID: room)
        for number in 1...MatrixThreadSource.pageSize { try reply(by: bo, "reply \(number)") }

        let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)/\(root)")),
                                            me: ann.account.userID, environment: temporaryDataEnvironment())
        defer { source.stop() }
        XCTAssertTrue(source.hasOlderComments)
        source.loadOlderComments()
        let older = try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } }
        let named = older.flatMap { update -> [User] in if case .usersChanged(let users) = update { users } else { [] } }
        XCTAssertEqual(named.first { $0.id == cy.account.userID }?.name, "Cy Departed", "\(older)")
    }
}
