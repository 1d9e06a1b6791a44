import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// `MatrixRoomKeys.encrypt` against Synapse with matrix-nio, below the thread source: what a
/// send writes to the crypto store.
final class MatrixRoomKeysSendingTests: SharedSynapseTestCase {
    /// Every write is a journal append and an fsync, and the device lists are the store's biggest
    /// record in a big room (every member's devices and keys): a send that learned nothing new
    /// about them leaves them as they are, and one that did (a new member) keeps them.
    func testASendThatLearnsNothingAboutTheDevicesLeavesTheirListsUnwritten() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        try nioSends(["hello"], in: room)
        let members: Set = [room.ann.account.userID, room.bo.account.userID]
        let content: JSONValue = ["msgtype": "m.text", "body": "first"]
        _ = try keys.encrypt(type: "m.room.message", content: content, roomID: room.room, members: members, settings: [:])
        XCTAssertEqual(try keys.device.store.value("tracker", in: MatrixRoomKeys.deviceLists)?.tracked, members, "the first send follows them")

        // Taken out of the store, it shows whether a later send writes it again.
        try keys.device.store.remove(id: "tracker", from: MatrixRoomKeys.deviceLists)
        _ = try keys.encrypt(type: "m.room.message", content: content, roomID: room.room, members: members, settings: [:])
        XCTAssertTrue(try keys.device.store.value("tracker", in: MatrixRoomKeys.deviceLists) == nil, "nothing new: not written")

        let cy = try registerUser("cy", on: try server)
        _ = try keys.encrypt(type: "m.room.message", content: content, roomID: room.room, members: members.union([cy.account.userID]),
                             settings: [:])
        XCTAssertEqual(try keys.device.store.value("tracker", in: MatrixRoomKeys.deviceLists)?.tracked, members.union([cy.account.userID]),
                       "a new member is followed, and kept so")
    }
}
