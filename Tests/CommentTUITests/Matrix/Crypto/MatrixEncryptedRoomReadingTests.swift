import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Reading an encrypted room through the real thread source, against Synapse, with matrix-nio
/// (vodozemac) as the sender: its room keys come to our device over Olm, its messages decrypt
/// in order, in place of the rows that waited for the key, and again after a restart from the
/// store alone; a message whose key never came shows why and stays; a replayed index is refused.
final class MatrixEncryptedRoomReadingTests: SharedSynapseTestCase {
    private static let waiting = "🔒 unable to decrypt: the sender's key has not arrived (waiting for the key)"

    /// The rows as the updates leave them: appended ones added, edited ones replaced in place.
    private func applying(_ updates: [ThreadUpdate], to rows: [Comment]) -> [Comment] {
        var rows = rows
        for update in updates {
            switch update {
            case .commentsAppended(let list): rows += list
            case .commentEdited(let edited): if let at = rows.firstIndex(where: { $0.id == edited.id }) { rows[at] = edited }
            default: break
            }
        }
        return rows
    }

    func testTwentyMessagesFromNioDecryptInOrderAtOpeningAndLive() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        let bodies = (1 ... 20).map { "secret \($0)" }
        let ids = try nioSends(bodies, in: room)

        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let first = opened(source)
        XCTAssertEqual(first.map(\.id), ids, "every message has its row, in order")
        XCTAssertEqual(first.map(\.body), bodies, "the room key came over Olm with the opening's sync")
        XCTAssertTrue(first.allSatisfy { !source.isPlaceholder($0.id) && $0.author == room.bo.account.userID })

        let more = (21 ... 25).map { "secret \($0)" }
        let moreIDs = try nioSends(more, in: room)
        var live: [Comment] = []
        try collectUpdates(from: source, timeout: 30) { updates in
            live = applying(updates, to: [])
            return live.count >= more.count
        }
        XCTAssertEqual(live.map(\.id), moreIDs)
        XCTAssertEqual(live.map(\.body), more, "decrypted as they come through the account's sync")
    }

    func testEncryptedRepliesAndEditsWorkAsClearOnesDo() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        let ids = try nioSends(["the question"], in: room)
        let reply = try XCTUnwrap(room.nio.run([.sync, .sendEncryptedContent(room: room.room, content: [
            "msgtype": "m.text", "body": "the answer", "m.relates_to": ["m.in_reply_to": ["event_id": ids[0]]],
        ])]).last?["event_id"] as? String)
        try room.nio.run([.sync, .sendEncryptedContent(room: room.room, content: [
            "msgtype": "m.text", "body": "* the better question",
            "m.new_content": ["msgtype": "m.text", "body": "the better question"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": ids[0]],
        ])])

        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let rows = opened(source)
        XCTAssertEqual(rows.map(\.id), [ids[0], reply], "the edit takes no row")
        XCTAssertEqual(rows.first?.body, "the better question")
        XCTAssertNotNil(rows.first?.edited)
        XCTAssertEqual(rows.last?.replyTo, ids[0])
        XCTAssertEqual(rows.last?.body, "the answer")
        XCTAssertNil(source.sendingHeld, "with the account's keys, what we write goes encrypted")
    }

    func testAMessageWhoseKeyNeverCameShowsWhyAndStaysWhileLaterOnesDecrypt() throws {
        let room = try encryptedRoom()
        // Before Ann's device has keys: nio has no device of hers to share the room key with.
        let early = try nioSends(["before ann had keys"], in: room)
        let keys = try keys(of: room)
        let later = try nioSends(["after ann had keys"], in: room)

        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let first = opened(source)
        XCTAssertEqual(first.map(\.id), early + later)
        var rows = first
        try collectUpdates(from: source, timeout: 30) { updates in
            rows = applying(updates, to: first)
            return rows.last?.body == "after ann had keys"
        }
        XCTAssertEqual(rows.map(\.id), early + later, "the unreadable one does not vanish")
        XCTAssertEqual(rows.first?.body, Self.waiting)
        XCTAssertTrue(source.isPlaceholder(early[0]))
    }

    func testAMessageWhoseKeyComesLaterIsDecryptedInPlace() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        let before = try nioSends(["before"], in: room)
        let sent = try XCTUnwrap(room.nio.run([.sync, .sendKeepingTheKey(room: room.room, body: "its key came later")]).last)
        let late = try XCTUnwrap(sent["event_id"] as? String)
        let after = try nioSends(["after"], in: room)

        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let first = opened(source)
        XCTAssertEqual(first.map(\.id), before + [late] + after)
        XCTAssertEqual(first.map(\.body), ["before", Self.waiting, "after"])
        XCTAssertTrue(source.isPlaceholder(late))

        try room.nio.run([.sync, .shareKey(room: room.room, sessionID: XCTUnwrap(sent["session_id"] as? String),
                                           sessionKey: XCTUnwrap(sent["session_key"] as? String))])
        var rows = first
        var updates: [ThreadUpdate] = []
        try collectUpdates(from: source, timeout: 30) { collected in
            updates = collected
            rows = applying(collected, to: first)
            return rows[1].body == "its key came later"
        }
        XCTAssertEqual(rows.map(\.id), before + [late] + after, "decrypted in place: the same row, nothing moved")
        XCTAssertTrue(updates.allSatisfy(\.appended.isEmpty), "nothing added")
        XCTAssertFalse(source.isPlaceholder(late))
    }

    func testHomesPreviewOfAnEncryptedRoomIsDecryptedAndItsCacheKeepsNoText() throws {
        let room = try encryptedRoom()
        let environment = room.environment
        let account = MatrixAccounts.Account(userID: room.ann.account.userID, homeserver: try server.baseURL.absoluteString,
                                             accessToken: room.ann.account.accessToken, deviceID: room.ann.account.deviceID)
        let mailbox = try ClientMailbox()
        var link: AccountLink? = AccountLink(account: account, client: room.ann.client, environment: environment, usesCache: true,
                                             mailbox: mailbox, firstWindow: nil)
        link?.start()
        // The link's first answer uploads the device's keys; nio then sees the device.
        let uploaded = Date().addingTimeInterval(20)
        while link?.sync.roomKeys?.device.deviceKeysUploaded != true, Date() < uploaded { Thread.sleep(forTimeInterval: 0.05) }
        try nioSends(["the newest secret"], in: room)
        var preview: String?
        let deadline = Date().addingTimeInterval(30)
        while preview != "the newest secret", Date() < deadline {
            for case .summaries(_, let rows) in mailbox.take() {
                preview = rows.first { $0.key == .room(account: account.userID, roomID: room.room) }?.preview ?? preview
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(preview, "the newest secret", "decrypted in home, never a lock or ciphertext")
        link?.close()
        link = nil

        let cache = try XCTUnwrap(HomeCache(account: account.userID, environment: environment))
        let kept = try XCTUnwrap(cache.load()).rooms.summaries.first { $0.key == .room(account: account.userID, roomID: room.room) }
        XCTAssertEqual(kept?.preview, MatrixEncryptedEvent.body, "home's cache is not encrypted: it keeps no decrypted text")
    }

    func testAWithheldKeySaysWhyInWords() throws {
        let room = try encryptedRoom()
        let early = try nioSends(["withheld from ann"], in: room)
        let keys = try keys(of: room)
        let raw = try XCTUnwrap(room.bo.other.messages(roomID: room.room).first { $0["event_id"] as? String == early[0] })
        let content = try XCTUnwrap(raw["content"] as? [String: Any])
        // What a strict sender (Element, mautrix) sends a device it will not share the key with.
        let notice: JSONValue = [
            "type": "m.room_key.withheld", "sender": .string(room.bo.account.userID),
            "content": ["algorithm": "m.megolm.v1.aes-sha2", "room_id": .string(room.room), "code": "m.unverified",
                        "session_id": .string(try XCTUnwrap(content["session_id"] as? String)),
                        "sender_key": .string(try XCTUnwrap(content["sender_key"] as? String)), "reason": "Unverified device"],
        ]
        XCTAssertEqual(keys.take(["to_device": ["events": [notice]]]), [])

        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        XCTAssertEqual(opened(source).map(\.body), ["🔒 unable to decrypt: " + WithheldCode.unverified.words + " (waiting for the key)"])
    }

    func testARestartDecryptsEverythingFromTheStoreAlone() throws {
        let room = try encryptedRoom()
        let bodies = ["one", "two", "three"]
        do {
            let keys = try keys(of: room)
            try nioSends(bodies, in: room)
            // The account's sync takes the room keys, as it would in a first run.
            let sync = MatrixAccountSync(client: room.ann.client)
            sync.roomKeys = keys
            sync.start()
            let deadline = Date().addingTimeInterval(20)
            while sync.position == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            sync.stop()
            sync.roomKeys = nil
        }

        // The next run: a new account sync that is never started, so no key can come again.
        let again = try self.keys(of: room)
        let (source, other) = try open(room, keys: again)
        defer { source.stop(); other.stop() }
        XCTAssertEqual(opened(source).map(\.body), bodies, "decrypted at opening, from the keys kept")
    }

    func testAToDeviceMessageHandedOutAgainIsTakenOnceAndStartsNoNewSession() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        try nioSends(["handed out twice"], in: room)
        // Two syncs from the start: the server hands the same to-device messages to both (as an
        // opening's sync and the account's, or a verb run twice, see them).
        let first = try room.ann.client.sync(since: nil, filter: [:], wait: 0)
        let again = try room.ann.client.sync(since: nil, filter: [:], wait: 0)
        XCTAssertFalse(again["to_device"]?["events"]?.array?.isEmpty ?? true, "the server handed them out again")
        XCTAssertEqual(keys.take(first), [])
        let sessions = try keys.device.store.values(in: MatrixRoomKeys.olmSessions).values.map(\.count)
        XCTAssertEqual(keys.take(again), [], "already opened: nothing to say")
        XCTAssertEqual(try keys.device.store.values(in: MatrixRoomKeys.olmSessions).values.map(\.count), sessions,
                       "no new session started for a message already read")
        // And after a restart, from the store.
        XCTAssertEqual(keys.lock.withLock { keys.openedRecently.count }, 1)
    }

    func testASecondOpeningOfTheSameStoreIsRefusedAsBusy() throws {
        let room = try encryptedRoom()
        var keys: MatrixRoomKeys? = try keys(of: room)
        XCTAssertThrowsError(try self.keys(of: room)) { XCTAssertEqual($0 as? CryptoStoreRefusal, .busy) }
        // As the client opens an account's keys: refused with words, and no keys (encrypted rooms stay unread).
        var complaints: [String] = []
        let account = MatrixAccounts.Account(userID: room.ann.account.userID, homeserver: "", accessToken: "", deviceID: room.ann.account.deviceID)
        XCTAssertNil(MatrixRoomKeys.open(client: room.ann.client, account: account, environment: room.environment) { complaints.append($0) })
        XCTAssertEqual(complaints, ["encrypted rooms cannot be read: the encryption store was not opened: another comment-tui has it open "
                                    + "(one per account and device at a time); close that one first"])
        XCTAssertNotNil(keys)
        keys = nil
        XCTAssertNotNil(MatrixRoomKeys.open(client: room.ann.client, account: account, environment: room.environment) { complaints.append($0) },
                        "opened once the other let go")
    }

    func testAReplayedMegolmIndexUnderAnotherEventIsRefused() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        let ids = try nioSends(["the original"], in: room)
        // Bo's server (or anyone able to send as Bo) sends the same ciphertext again, as a new event.
        let original = try XCTUnwrap(room.bo.other.messages(roomID: room.room).first { $0["event_id"] as? String == ids[0] })
        let content = try XCTUnwrap(original["content"] as? [String: Any])
        XCTAssertEqual(content["algorithm"] as? String, "m.megolm.v1.aes-sha2")
        let replay = try room.bo.other.send(roomID: room.room, content: content, type: "m.room.encrypted")

        let sync = MatrixAccountSync(client: room.ann.client)
        sync.roomKeys = keys
        sync.start()
        let deadline = Date().addingTimeInterval(20)
        while sync.position == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        sync.stop()

        let (source, other) = try open(room, keys: keys)
        defer { source.stop(); other.stop() }
        let rows = opened(source)
        XCTAssertEqual(rows.map(\.id), [ids[0], replay])
        XCTAssertEqual(rows.first?.body, "the original")
        XCTAssertTrue(rows.last?.body.hasPrefix("🔒 unable to decrypt: refused: it replays the key index of another message") == true,
                      rows.last?.body ?? "")
        XCTAssertFalse(rows.last?.body.contains("waiting for the key") ?? true)
    }
}
