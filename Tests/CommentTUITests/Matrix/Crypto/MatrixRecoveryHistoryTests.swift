import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// History made readable by the recovery key, against Synapse with mautrix as the strict peer
/// (an Element-like session of the same person that shares room keys only with devices its user
/// cross-signed): before the recovery key, its messages reach this device as withheld and say
/// so; after it, this device asks its own verified sessions for the keys and the messages that
/// arrived before decrypt in place.
final class MatrixRecoveryHistoryTests: SharedSynapseTestCase {
    func testWithheldMessagesDecryptInPlaceOnceTheRecoveryKeyIsEntered() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Notes to self", preset: .privateChat,
                                            initialState: [["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]])
        let mautrix = MautrixPeer(homeserver: server.baseURL, userID: ann.account.userID, password: ann.account.password)
        let recoveryKey = try mautrix.setUpRecovery().recoveryKey

        // This device, its keys up before Ann's Element-like session writes.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recovery-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let keys = try MatrixRoomKeys(client: ann.client, userID: ann.account.userID, deviceID: ann.account.deviceID,
                                      location: XCTUnwrap(CryptoStoreLocation(userID: ann.account.userID, deviceID: ann.account.deviceID,
                                                                              environment: environment)))
        XCTAssertEqual(keys.take(["to_device": ["events": []]]), [])

        // Her other session (verified with the recovery key, strict) writes, then stays up to
        // answer key requests until the test is done.
        let done = folder.appendingPathComponent("done").path
        let bodies = ["written before the recovery key", "and a second note"]
        let session = DispatchGroup()
        nonisolated(unsafe) var served: Result<[[String: Any]], Error>?
        session.enter()
        DispatchQueue.global().async {
            served = Result { try mautrix.run([.verifyWithRecoveryKey(recoveryKey), .strict, .sync]
                                               + bodies.map { .sendText(room: room, body: $0) } + [.serve(seconds: 90, until: done)]) }
            session.leave()
        }
        defer {
            FileManager.default.createFile(atPath: done, contents: nil)
            _ = session.wait(timeout: .now() + 30)
        }
        let written = Date().addingTimeInterval(60)
        var sent: [String] = []
        while sent.count < bodies.count, Date() < written, served == nil {
            Thread.sleep(forTimeInterval: 0.5)
            sent = try ann.other.messages(roomID: room).filter { $0["type"] as? String == "m.room.encrypted" }.compactMap { $0["event_id"] as? String }
        }
        XCTAssertEqual(sent.count, bodies.count, "the other session wrote: \(String(describing: served))")

        let sync = MatrixAccountSync(client: ann.client)
        sync.roomKeys = keys
        let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: temporaryDataEnvironment(), usesCache: false,
                                            accountSync: sync)
        defer { source.stop(); sync.stop() }
        var rows = opened(source)
        let withheld = "🔒 unable to decrypt: " + WithheldCode.unverified.words + " (waiting for the key)"
        func applying(_ updates: [ThreadUpdate]) {
            for case .commentEdited(let edited) in updates {
                if let at = rows.firstIndex(where: { $0.id == edited.id }) { rows[at] = edited }
            }
        }
        if rows.map(\.body) != [withheld, withheld] {
            try collectUpdates(from: source, timeout: 30) { updates in
                applying(updates)
                return rows.map(\.body) == [withheld, withheld]
            }
        }
        XCTAssertEqual(rows.map(\.body), [withheld, withheld], "withheld, and saying why")

        // The recovery key, entered once: this device is cross-signed, asks, and gets the keys.
        _ = try keys.lock.withLock { try keys.device.verify(with: .recoveryKey(recoveryKey), client: ann.client) }
        try collectUpdates(from: source, timeout: 60) { updates in
            applying(updates)
            return rows.map(\.body) == bodies
        }
        XCTAssertEqual(rows.map(\.body), bodies, "decrypted in place, the rows where they were")
        XCTAssertEqual(rows.map(\.id), sent.reversed())
        XCTAssertEqual(rows.map { source.keyNote(of: $0.id) }, [RoomKeyOrigin.forwarded.words, RoomKeyOrigin.forwarded.words],
                       "F2 says the keys were forwarded")
    }
}
