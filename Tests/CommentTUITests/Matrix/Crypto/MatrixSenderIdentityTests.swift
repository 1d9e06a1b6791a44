import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// A sender's cross-signing identity, trust on first use, against Synapse: Bo sets up
/// cross-signing (mautrix, as Element's "set up recovery"), Ann's device pins his master key;
/// when Bo's identity is replaced, his comments in the encrypted room say so, loudly, in their
/// header, and keep saying it after a restart. Ann's own comments never do.
final class MatrixSenderIdentityTests: SharedSynapseTestCase {
    func testAChangedIdentityIsShownOnTheSendersCommentsAndKeptAcrossARestart() throws {
        let room = try encryptedRoom()
        try showsAChangedIdentity(in: room)
        // The next run knows it from the store, once the first let go of it (as a process ending would).
        var again: MatrixRoomKeys?
        let released = Date().addingTimeInterval(10)
        while again == nil, Date() < released {
            again = try? MatrixRoomKeys(client: room.ann.client, userID: room.ann.account.userID, deviceID: room.ann.account.deviceID,
                                        location: XCTUnwrap(CryptoStoreLocation(userID: room.ann.account.userID,
                                                                                deviceID: room.ann.account.deviceID, environment: room.environment)))
            if again == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        XCTAssertEqual(try XCTUnwrap(again).identityChanged(of: room.bo.account.userID), true, "kept in the crypto store")
    }

    private func showsAChangedIdentity(in room: EncryptedRoom) throws {
        let bo = room.bo.account.userID
        let mautrix = MautrixPeer(homeserver: try server.baseURL, userID: bo, password: room.bo.account.password)
        _ = try mautrix.setUpRecovery()
        let keys = try keys(of: room)
        try nioSends(["Bo, as first met"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 90, rows: 20)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 90, rows: 20))
        pilot.draw()
        XCTAssertTrue(pilot.screen.lines.contains { $0.contains("Bo, as first met") }, pilot.screen.lines.joined(separator: "\n"))
        XCTAssertFalse(source.senderIdentityChanged(bo), "first seen: pinned, not changed")
        XCTAssertFalse(pilot.screen.lines.joined().contains(CommentHeaderLayout.identityChangedText))

        // Bo's cross-signing is set up anew: another master key.
        _ = try mautrix.setUpRecovery()
        let updates = try collectUpdates(from: source, timeout: 40) { _ in source.senderIdentityChanged(bo) }
        app.receive(updates + source.takeUpdates())
        pilot.draw()
        let lines = pilot.screen.lines
        let boRow = try XCTUnwrap(lines.firstIndex { $0.contains(CommentHeaderLayout.identityChangedText) }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[boRow].contains(room.bo.localpart) || lines[boRow].contains(bo), "on Bo's header: \(lines[boRow])")
        XCTAssertFalse(source.senderIdentityChanged(room.ann.account.userID))

        sync.roomKeys = nil
    }
}
