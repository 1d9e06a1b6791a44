import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A lone UTF-16 surrogate (`\ud800`) in one event, which Foundation's JSON decoding refuses:
/// the one string is repaired (U+FFFD in its place), never the whole sync or page refused.
///
/// Synapse itself refuses such an event (500: it cannot encode it to hash it), so a scripted
/// server in front of it writes the escapes into one event of Synapse's answers, as another
/// homeserver passing on its sender's JSON would; everything else is Synapse's.
final class MatrixLoneSurrogateTests: SharedSynapseTestCase {
    private static let marker = "lone-surrogate-goes-here"
    private static let broken = #"high \ud800 low \udc00 end"#
    private static let repaired = "high \u{FFFD} low \u{FFFD} end"

    func testALoneSurrogateInOneEventIsRepairedAndTheRoomStaysLive() throws {
        let (bo, ann, room) = try twoUsersInARoom("Surrogates", on: server)
        let refused = try bo.other.sendRaw(roomID: room, json: #"{"msgtype":"m.text","body":"\#(Self.broken)"}"#)
        XCTAssertEqual(refused.status, 500, "Synapse refuses it itself (if it takes it one day, send it through Synapse): \(refused.body)")

        try bo.other.sendText(roomID: room, body: "the post")
        let upstream = try server.baseURL
        let front = try ScriptedHomeserver { request in
            .forwarded(request, to: upstream) { $0.replacingOccurrences(of: Self.marker, with: Self.broken) }
        }
        defer { front.stop() }
        var throughFront = ann
        throughFront.client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let source = try open(room, as: throughFront)
        defer { source.stop() }
        try bo.other.sendText(roomID: room, body: Self.marker)
        try bo.other.sendText(roomID: room, body: "the next one")
        let updates = try collectUpdates(from: source, timeout: 20) { $0.flatMap(\.appended).contains { $0.body == "the next one" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), [Self.repaired, "the next one"])
        XCTAssertFalse(updates.contains { if case .connection(.offline) = $0 { true } else { false } }, "\(updates.map(describe))")

        // Opened again, the page that holds it opens too.
        let reopened = try open(room, as: throughFront, follows: false, usesCache: false)
        XCTAssertEqual((reopened.openedComments as! ArrayCommentStore).comments.map(\.body), [Self.repaired, "the next one"])
    }
}
