import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Crash windows of the account's keys, against Synapse with matrix-nio: what a crash between
/// two steps leaves must let the next start do the step again, never lose what the server sent once.
final class MatrixRoomKeysCrashTests: SharedSynapseTestCase {
    /// A to-device message stays on the server until a later sync passes it, so after a crash it
    /// comes again: opening it must not have moved the Olm session on disk (nor spent the
    /// one-time key) unless the room key it carried was kept in the same write, or the key
    /// that came again no longer opens and nio's messages never read.
    func testAnOlmMessageOpenedButNotKeptBeforeACrashOpensAgainAndItsKeyIsKept() throws {
        let room = try encryptedRoom()
        weak var first: MatrixRoomKeys?
        var toDevice: [JSONValue] = []
        do {
            let keys = try keys(of: room)
            first = keys
            try nioSends(["read after the crash"], in: room)
            // Ann's sync as the account's sync gets it; never passed, so the server keeps it.
            let answer = JSONValue(foundation: try room.ann.other.sync(timeout: 0))
            toDevice = (answer["to_device"]?["events"]?.array ?? []).filter { $0["type"]?.string == "m.room.encrypted" }
            XCTAssertEqual(toDevice.count, 1, "nio's room key, over Olm")
            // The process dies once the message is open, before what it carries is kept.
            let opened = try keys.lock.withLock { try keys.openOlm(toDevice[0], sender: room.bo.account.userID) }
            XCTAssertEqual(opened.payload.type, "m.room_key")
        }
        XCTAssertNil(first, "the first run let go of its keys (as a process ending would)")

        let keys = try keys(of: room)
        XCTAssertEqual(keys.take(["to_device": ["events": .array(toDevice)]]), [], "the message opens again")
        let message = try XCTUnwrap(room.bo.other.messages(roomID: room.room).first { $0["type"] as? String == "m.room.encrypted" })
        guard case .clear(let clear) = keys.read(JSONValue(foundation: message), roomID: room.room) else {
            return XCTFail("nio's message does not read: \(String(describing: keys.read(JSONValue(foundation: message), roomID: room.room)))")
        }
        XCTAssertEqual(clear["content"]?["body"]?.string, "read after the crash")
    }
}
