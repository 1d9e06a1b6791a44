import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// A long conversation in an encrypted room, against Synapse, with matrix-nio (vodozemac) on
/// the other side: 200 messages both ways in batches, our Megolm session rotating at the room's
/// message count and when a third member (Cy, another nio device) leaves between the batches;
/// each side reads every message of the other, in order, and the key made after Cy left never
/// reaches Cy's device.
final class MatrixEncryptedConversationTests: SharedSynapseTestCase {
    /// The rows the updates leave: appended ones added, edited ones (decrypted late) replaced in place.
    private func applying(_ updates: [ThreadUpdate], to rows: inout [Comment]) {
        for update in updates {
            switch update {
            case .commentsAppended(let list): rows += list
            case .commentEdited(let edited): if let at = rows.firstIndex(where: { $0.id == edited.id }) { rows[at] = edited }
            default: break
            }
        }
    }

    /// Bo's rows that read, in order.
    private func bosRows(_ rows: [Comment], in room: EncryptedRoom, source: MatrixThreadSource) -> [String] {
        rows.filter { $0.author == room.bo.account.userID && !source.isPlaceholder($0.id) }.map(\.body)
    }

    /// Queues `bodies` as Ann all at once (they go in order through the outbox) and waits until
    /// the server took each; the updates seen meanwhile are applied to `rows`.
    private func annSends(_ bodies: [String], through source: MatrixThreadSource, as room: EncryptedRoom,
                          rows: inout [Comment]) throws {
        let comments = bodies.map { comment(by: room.ann, $0) }
        for sent in comments { XCTAssertEqual(source.send(sent), .pending) }
        let wanted = Set(comments.map(\.id))
        let updates = try collectUpdates(from: source, timeout: 60) { updates in
            wanted.isSubset(of: updates.compactMap { if case .sendConfirmed(let id) = $0 { id } else { nil } })
        }
        applying(updates, to: &rows)
    }

    /// Ann's events in the room as the server holds them, oldest first (membership aside).
    private func annsEvents(in room: EncryptedRoom) throws -> [[String: Any]] {
        try room.bo.other.messages(roomID: room.room, limit: 1000).reversed().filter {
            $0["sender"] as? String == room.ann.account.userID && $0["type"] as? String != "m.room.member"
        }
    }

    /// The lengths of the runs of equal ids, in order.
    private func runs(_ ids: [String]) -> [Int] {
        var lengths: [Int] = []
        for (index, id) in ids.enumerated() {
            if index > 0, ids[index - 1] == id { lengths[lengths.count - 1] += 1 } else { lengths.append(1) }
        }
        return lengths
    }

    func testTwoHundredMessagesBothWaysAcrossARotationAndAMemberLeaving() throws {
        // 30 a session: each batch of 50 of ours rotates once at the count; Cy leaving after our
        // first batch (its second session 20 messages in) rotates it again.
        let room = try encryptedRoom(rotationMessages: 30)
        let cy = try registerUser("cy", on: try server)
        let cyNio = MatrixNioPeer(homeserver: try server.baseURL, userID: cy.account.userID, password: cy.account.password,
                                  storeFolder: room.folder.appendingPathComponent("cy").path)
        try room.ann.other.invite(roomID: room.room, userID: cy.account.userID)
        _ = try cy.other.join(room.room)
        let cyDevice = try XCTUnwrap(cyNio.run([.uploadKeys]).first?["device_id"] as? String)
        let keys = try keys(of: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        var rows = opened(source)

        let batches = (0 ..< 4).map { batch in
            (1 ... 50).map { "\(batch % 2 == 0 ? "bo" : "ann") \(batch / 2 * 50 + $0)" }
        }
        var sharedWithCy: [String] = []
        for (index, bodies) in batches.enumerated() {
            if index % 2 == 0 {
                try nioSends(bodies, in: room)
                let wanted = batches.enumerated().filter { $0.offset % 2 == 0 && $0.offset <= index }.flatMap(\.element)
                applying(try collectUpdates(from: source, timeout: 60) { updates in
                    var seen = rows
                    applying(updates, to: &seen)
                    return bosRows(seen, in: room, source: source) == wanted
                }, to: &rows)
            } else {
                try annSends(bodies, through: source, as: room, rows: &rows)
            }
            if index == 1 {
                let outbound = try XCTUnwrap(keys.device.store.value(room.room, in: MatrixRoomKeys.outboundSessions))
                XCTAssertEqual(outbound.sharedWith[cy.account.userID].map { Array($0.keys) }, [cyDevice], "Cy had the key before leaving")
                sharedWithCy = sessionIDsOfAnn(try annsEvents(in: room))
                try cy.other.leave(roomID: room.room)
            }
        }

        // We read every one of Bo's messages, in order, live.
        XCTAssertEqual(bosRows(rows, in: room, source: source), batches[0] + batches[2])

        // Ours left encrypted only, in sessions of 30 and one cut short when Cy left.
        let events = try annsEvents(in: room)
        XCTAssertEqual(events.count, 100)
        XCTAssertTrue(events.allSatisfy { $0["type"] as? String == "m.room.encrypted" })
        let raw = String(decoding: try JSONSerialization.data(withJSONObject: events), as: UTF8.self)
        XCTAssertFalse(raw.contains("ann "), "no plaintext of ours on the server")
        let sessions = sessionIDsOfAnn(events)
        XCTAssertEqual(runs(sessions), [30, 20, 30, 20], "rotated at the count, and when Cy left")
        XCTAssertEqual(Set(sessions).count, 4, "a session is never taken up again")
        let beforeLeaving = Set(sharedWithCy), afterLeaving = Set(sessions).subtracting(beforeLeaving)
        XCTAssertEqual(beforeLeaving.count, 2)
        XCTAssertEqual(afterLeaving.count, 2)

        // Nio reads all 200, in order.
        let read = try XCTUnwrap(room.nio.run([.messages(room: room.room, limit: 400)]).first)
        let messages = try XCTUnwrap(read["messages"] as? [[String: Any]], "\(read)")
        XCTAssertEqual(read["undecrypted"] as? Int, 0, "nio opened everything")
        let nioBodies = messages.filter { $0["decrypted"] as? Bool == true }.compactMap { $0["body"] as? String }
        XCTAssertEqual(nioBodies, batches.flatMap { $0 })

        // Cy's device holds the keys of our sessions from before it left, never of those after.
        let cyKeys = try XCTUnwrap(cyNio.run([.roomKeys(room: room.room)]).first?["sessions"] as? [String: [String]])
        let fromUs = Set(cyKeys[keys.device.identityKey] ?? [])
        XCTAssertEqual(fromUs, beforeLeaving, "Cy got the keys while in the room, and none after")
        let outbound = try XCTUnwrap(keys.device.store.value(room.room, in: MatrixRoomKeys.outboundSessions))
        XCTAssertNil(outbound.sharedWith[cy.account.userID])
        XCTAssertNotNil(outbound.sharedWith[room.bo.account.userID])
    }

    private func sessionIDsOfAnn(_ events: [[String: Any]]) -> [String] {
        events.compactMap { ($0["content"] as? [String: Any])?["session_id"] as? String }
    }
}
