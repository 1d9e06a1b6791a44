import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// A post's header follows its root against the real Synapse: the root's edit retitles it live,
/// and a redaction made while the post was closed reaches the header when it reopens from its
/// offline copy.
final class MatrixPostHeaderTests: SharedSynapseTestCase {
    private func openPost(_ room: String, root: String, as user: MatrixTestUser, environment: [String: String]) throws -> MatrixThreadSource {
        try MatrixThreadSource(client: user.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)/\(root)")),
                               me: user.account.userID, environment: environment, usesCache: true)
    }

    private func headers(_ updates: [ThreadUpdate]) -> [String] {
        updates.compactMap { if case .headerChanged(let title, _) = $0 { title } else { nil } }
    }

    func testTheRootsEditAndRedactionReachThePostsHeader() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Post header", on: server)
        let root = try bo.other.sendText(roomID: room, body: "Frist post\nthe body")
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "a reply",
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
        let environment = temporaryDataEnvironment()
        let source = try openPost(room, root: root, as: ann, environment: environment)
        XCTAssertEqual(source.thread.title, "Frist post")
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "* First post\nthe body",
            "m.new_content": ["msgtype": "m.text", "body": "First post\nthe body, edited"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": root],
        ])
        let live = try collectUpdates(from: source) { self.headers($0).contains("First post") }
        XCTAssertEqual(headers(live).last, "First post", "the edit retitles the header live")
        source.stop()

        _ = try bo.other.redact(roomID: room, eventID: root)
        let again = try openPost(room, root: root, as: ann, environment: environment)
        defer { again.stop() }
        XCTAssertEqual(again.thread.title, "First post", "the copy kept the edited header")
        let caughtUp = try collectUpdates(from: again) { $0.contains { if case .caughtUp = $0 { true } else { false } } }
        XCTAssertEqual(headers(caughtUp).last, MatrixEventReader.deleted, "the redaction made while closed reaches the header")
    }
}
