import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Server-side key backup against Synapse: our first device uploads its sessions to the backup
/// it made; a second device of the same account, verified with the recovery key, restores a
/// room's keys lazily as the room opens and is scrolled back, its rows decrypting in place; a
/// backup whose `auth_data` signature was tampered with is refused (nothing restored, nothing
/// uploaded, said once); hostile sessions in the backup are errors, not crashes.
final class MatrixKeyBackupTests: SharedSynapseTestCase {
    /// The room's rows as a reader sees them: the opening's, older pages put before them
    /// (asked for while there are more), edits in place; and the problems said. Until `done`.
    private func follow(_ source: MatrixThreadSource, timeout: Double,
                        until done: (_ rows: [Comment], _ problems: [String]) -> Bool) throws -> (rows: [Comment], problems: [String]) {
        var rows = opened(source)
        var said: [String] = []
        var seen = 0
        source.loadOlderComments()
        try collectUpdates(from: source, timeout: timeout) { updates in
            for update in updates[seen...] {
                switch update {
                case .commentEdited(let edited):
                    if let at = rows.firstIndex(where: { $0.id == edited.id }) { rows[at] = edited }
                case .olderComments(let older, let hasMore):
                    rows = older.filter { !$0.body.hasPrefix("🔒 *switched on") } + rows
                    if hasMore { source.loadOlderComments() }
                case .problem(let problem):
                    said.append(problem.message)
                default:
                    break
                }
            }
            seen = updates.count
            return done(rows, said)
        }
        return (rows, said)
    }

    func testASecondDeviceReadsTwoHundredMessagesRestoredFromTheBackupAsTheRoomOpens() throws {
        let account = try backedUpAccount()
        let sent = try account.firstDeviceSends(200)
        XCTAssertEqual(account.first.backUpOwnSessions(), [], "the first device's sessions went up")
        let backedUp = try XCTUnwrap(account.ann.client.currentBackupVersion())
        XCTAssertEqual(backedUp["version"]?.string, account.version)
        XCTAssertEqual(backedUp["count"]?.int, 2, "two sessions: the room rotates after 100 messages")
        XCTAssertEqual(account.first.backUpOwnSessions(), [], "nothing twice")
        XCTAssertEqual(try account.ann.client.currentBackupVersion()?["etag"], backedUp["etag"])

        // Hostile entries beside them: garbage, and a session sealed to another key.
        var random = SystemRandom()
        let stranger = try MegolmBackupKey.generate(random: &random)
        let outbound = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let foreign = MegolmBackupSession(sessionKey: try MegolmInboundSession(sessionKey: outbound.sessionKey()).export(at: 0),
                                          senderKey: account.first.device.identityKey, senderClaimedEd25519: nil)
        let entry = { (data: JSONValue) -> JSONValue in
            ["first_message_index": 0, "forwarded_count": 0, "is_verified": false, "session_data": data]
        }
        try account.ann.client.uploadRoomKeys([account.room: ["sessions": [
            "garbage": entry(["ephemeral": "not a key", "ciphertext": "!!", "mac": "x"]),
            outbound.sessionID: entry(try stranger.encrypt(foreign, random: &random).json),
        ]]], version: account.version)

        // A second device of Ann's, never sent a key live, verified with the recovery key.
        let second = try account.secondDevice("second")
        _ = try second.keys.lock.withLock { try second.keys.device.verify(with: .recoveryKey(account.recoveryKey), client: second.client) }
        XCTAssertNotNil(try second.keys.device.store.value("key", in: MatrixRoomKeys.backupKey), "the backup key came from secret storage")
        let started = Date()
        let (source, sync) = try open(account.room, client: second.client, keys: second.keys, me: account.ann.account.userID)
        defer { source.stop(); sync.stop() }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the opening did not wait for the backup")
        XCTAssertTrue(opened(source).allSatisfy { $0.body.hasPrefix("🔒 unable to decrypt") }, "it opened with its rows waiting")
        let bodies = (0 ..< 200).map { "message \($0)" }
        let (rows, problems) = try follow(source, timeout: 60) { rows, _ in rows.map(\.body) == bodies }
        XCTAssertEqual(rows.map(\.body), bodies, "every message read, in place")
        XCTAssertEqual(rows.map(\.id), sent)
        let events = try account.ann.other.messages(roomID: account.room, limit: 300).filter { $0["type"] as? String == "m.room.encrypted" }
        let sessionIDs = Set(events.compactMap { ($0["content"] as? [String: Any])?["session_id"] as? String })
        XCTAssertEqual(sessionIDs.count, 2)
        for session in sessionIDs {
            XCTAssertEqual(second.keys.origin(roomID: account.room, sessionID: session), .backup, "marked as from the backup")
        }
        XCTAssertEqual(source.keyNote(of: sent[0]), RoomKeyOrigin.backup.words, "the comment's detail says where its key came from")
        XCTAssertEqual(source.keyNote(of: sent[199]), RoomKeyOrigin.backup.words)
        XCTAssertEqual(problems.filter { $0.hasPrefix("2 of this room's keys in your key backup were refused") }.count, 1, "\(problems)")

        // Opened again, the keys kept: F2 on a comment says where its key came from.
        source.stop()
        let (again, againSync) = try open(account.room, client: second.client, keys: second.keys, me: account.ann.account.userID)
        defer { again.stop(); againSync.stop() }
        let pilot = pilot(again, columns: 100, rows: 30)
        pump(pilot, again, "the newest message shown") { screenHas(pilot, "message 199") }
        pause(pilot, again)
        pilot.press(.altUp)
        pause(pilot, again)
        pilot.press(KeyPress(.function(2)))
        XCTAssertTrue(screenHas(pilot, "Encryption"), pilot.lines.joined(separator: "\n"))
        XCTAssertTrue(screenHas(pilot, "its key came from your key backup"), pilot.lines.joined(separator: "\n"))
    }

    func testABackupWhoseSignatureWasTamperedWithIsRefusedNothingRestoredNorUploaded() throws {
        let account = try backedUpAccount()
        _ = try account.firstDeviceSends(3)
        XCTAssertEqual(account.first.backUpOwnSessions(), [])
        // A new current version with our public key and its sessions, its signatures each one bit off.
        let client = account.ann.client
        let original = try XCTUnwrap(client.currentBackupVersion())
        var signatures = try XCTUnwrap(original["auth_data"]?["signatures"]?[account.ann.account.userID]?.object)
        for (keyID, value) in signatures {
            var bytes = try XCTUnwrap(UnpaddedBase64.decode(XCTUnwrap(value.string)))
            bytes[9] ^= 0x04
            signatures[keyID] = .string(UnpaddedBase64.encode(bytes))
        }
        let tampered: JSONValue = ["public_key": try XCTUnwrap(original["auth_data"]?["public_key"]),
                                   "signatures": [account.ann.account.userID: .object(signatures)]]
        let forged = try client.createBackupVersion(algorithm: MegolmBackupKey.algorithm, authData: tampered)
        let rooms = try client.request("GET", ["room_keys", "keys"], query: ["version": account.version])["rooms"]
        try client.uploadRoomKeys(XCTUnwrap(rooms), version: forged)
        XCTAssertEqual(try client.currentBackupVersion()?["count"]?.int, 1)

        let second = try account.secondDevice("second")
        _ = try second.keys.lock.withLock { try second.keys.device.verify(with: .recoveryKey(account.recoveryKey), client: second.client) }
        let (source, sync) = try open(account.room, client: second.client, keys: second.keys, me: account.ann.account.userID)
        defer { source.stop(); sync.stop() }
        let refusal = "your key backup is not used (no keys restored from it nor uploaded to it): the key backup on the homeserver is not signed by your verified identity"
        let (rows, problems) = try follow(source, timeout: 20) { _, problems in problems.contains(refusal) }
        XCTAssertEqual(problems.filter { $0 == refusal }.count, 1, "said: \(problems)")
        XCTAssertEqual(rows.count, 3)
        XCTAssertTrue(rows.allSatisfy { $0.body.hasPrefix("🔒 unable to decrypt") }, "nothing restored: \(rows.map(\.body))")

        // A send of the second device makes a session of its own: not uploaded to that backup.
        let comment = comment(by: account.ann, "not for a forged backup")
        XCTAssertEqual(source.send(comment), .pending)
        var more: [ThreadUpdate] = []
        try collectUpdates(from: source, timeout: 30) { updates in
            more += updates
            return more.contains { if case .sendConfirmed(comment.id) = $0 { true } else { false } }
        }
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try client.currentBackupVersion()?["count"]?.int, 1, "nothing uploaded")
        more += source.takeUpdates()
        XCTAssertFalse(more.contains { if case .problem(let p) = $0 { p.message == refusal } else { false } }, "not said again: \(more)")
        XCTAssertEqual(try second.keys.device.store.ids(in: MatrixRoomKeys.backupPending).count, 1, "the session waits for a backup to trust")
    }

    func testADeviceHoldingItsSendersKeyFromALaterIndexRestoresTheEarlierMessagesAndTheKeyKeepsItsStanding() throws {
        let account = try backedUpAccount()
        let sent = try account.firstDeviceSends(3)
        // A second device got the session from its sender (signed) at index 3, as a device
        // logged in after three messages does; the first device goes on and backs it up.
        let second = try account.secondDevice("second")
        let outbound = try XCTUnwrap(account.first.device.store.value(account.room, in: MatrixRoomKeys.outboundSessions)).session
        let fromSender = MegolmInboundSession(sessionKey: try outbound.sessionKey())
        XCTAssertEqual(fromSender.firstKnownIndex, 3)
        let id = CryptoStoreCollection<MatrixRoomKeys.StoredRoomKey>.id(account.room, outbound.sessionID)
        let signingKey = account.first.device.fingerprint
        try second.keys.device.store.put(MatrixRoomKeys.StoredRoomKey(session: fromSender, senderKey: account.first.device.identityKey,
                                                                      claimedSigningKey: signingKey),
                                         id: id, in: MatrixRoomKeys.megolmSessions)
        let all = try sent + account.firstDeviceSends(2)
        XCTAssertEqual(account.first.backUpOwnSessions(), [])
        _ = try second.keys.lock.withLock { try second.keys.device.verify(with: .recoveryKey(account.recoveryKey), client: second.client) }

        let (source, sync) = try open(account.room, client: second.client, keys: second.keys, me: account.ann.account.userID)
        defer { source.stop(); sync.stop() }
        let bodies = (0 ..< 3).map { "message \($0)" } + (0 ..< 2).map { "message \($0)" }
        let (rows, _) = try follow(source, timeout: 20) { rows, _ in rows.map(\.body) == bodies }
        XCTAssertEqual(rows.map(\.body), bodies, "the messages before the key's index restored from the backup")
        XCTAssertEqual(rows.map(\.id), all)
        let kept = try XCTUnwrap(second.keys.device.store.value(id, in: MatrixRoomKeys.megolmSessions))
        XCTAssertEqual(kept.session.firstKnownIndex, 0)
        XCTAssertTrue(kept.session.isSigned, "still the sender's session")
        XCTAssertNil(kept.origin, "not downgraded to a key from the backup")
        XCTAssertEqual(kept.claimedSigningKey, signingKey, "the sender's claimed key kept (key files list it)")
        XCTAssertNotEqual(source.keyNote(of: all[4]), RoomKeyOrigin.backup.words)
    }
}
