import Foundation
import ThreadModel
import XCTest
import SynapseFixture
@testable import CommentTUI

/// What home knows of an account's rooms, fed the real Synapse's sync answers with the lean
/// filter the account's sync uses: names, counts and markers as the server says, followed
/// incrementally; and the invite and leave calls.
final class MatrixAccountRoomsSynapseTests: SharedSynapseTestCase {
    /// The account sync's filter: every room, a small timeline, lazy-loaded members, the state a
    /// row needs, typing and receipts, `m.direct` and `m.fully_read`.
    static let filter: JSONValue = [
        "presence": ["types": []],
        "account_data": ["types": ["m.direct"]],
        "room": [
            "timeline": ["limit": 5, "lazy_load_members": true],
            "state": ["lazy_load_members": true, "types": ["m.room.name", "m.room.canonical_alias", "m.room.encryption",
                                                           "m.room.join_rules", "m.room.member", "m.room.topic"]],
            "ephemeral": ["types": ["m.typing", "m.receipt"]],
            "account_data": ["types": ["m.fully_read"]],
        ],
    ]

    /// The reader's rooms, synced from the start, and the token to go on from.
    private struct Reader {
        var user: MatrixTestUser
        var rooms: MatrixAccountRooms
        var since: String?
        var lastAnswer: JSONValue = .null
        /// When the first answer arrived (the time given to `apply`).
        var firstSyncTime: Date?

        init(_ user: MatrixTestUser) {
            self.user = user
            rooms = MatrixAccountRooms(account: user.account.userID)
        }

        /// One sync (a short wait once the first is done), applied.
        mutating func sync() throws {
            let answer = try user.client.sync(since: since, filter: MatrixAccountRoomsSynapseTests.filter, wait: since == nil ? 0 : 2)
            let now = Date()
            if since == nil { firstSyncTime = now }
            rooms.apply(sync: answer, at: now)
            since = answer["next_batch"]?.string
            lastAnswer = answer
        }

        /// Syncs until `done` holds for the room's row (or its absence), at most 20 s.
        mutating func sync(room: String, until done: (ThreadSummary?) -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
            let deadline = Date().addingTimeInterval(20)
            repeat {
                try sync()
                if done(rooms.summary(roomID: room)) { return }
            } while Date() < deadline
            XCTFail("the row never became as expected: \(String(describing: rooms.summary(roomID: room)))", file: file, line: line)
        }

        /// What the last answer said of a joined room's counts.
        func serverCounts(_ room: String) -> [Int?] {
            let counts = lastAnswer["rooms"]?["join"]?[room]?["unread_notifications"]
            return [counts?["notification_count"]?.int, counts?["highlight_count"]?.int]
        }
    }

    func testRowsMatchTheServerAndFollowItsIncrementalAnswers() throws {
        let server = try server
        let ann = try registerUser("ann", displayName: "Ann", on: server)
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let cy = try registerUser("cy", displayName: "Cy", on: server)
        let me = ann.account.userID

        let lobby = try bo.other.createRoom(name: "Lobby", preset: .publicChat)
        try ann.other.join(lobby)
        try cy.other.join(lobby)
        try bo.other.sendText(roomID: lobby, body: "morning")
        try bo.other.sendText(roomID: lobby, body: "coffee?")
        try cy.other.send(roomID: lobby, content: ["msgtype": "m.text", "body": "Ann: look here",
                                                   "m.mentions": ["user_ids": [me]]])

        let direct = try cy.other.createRoom(preset: .trustedPrivateChat, invite: [me])
        try ann.other.join(direct)
        try ann.other.call("PUT", "/_matrix/client/v3/user/\(escape(me))/account_data/m.direct",
                           body: [cy.account.userID: [direct]])
        try cy.other.sendText(roomID: direct, body: "psst")

        let ciphertext = "AwgAEnCkC3Rm0pnj9s8tHdM1fQ"
        let secret = try bo.other.createRoom(name: "Vault", preset: .privateChat, invite: [me], initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]])
        try ann.other.join(secret)
        try bo.other.send(roomID: secret, content: ["algorithm": "m.megolm.v1.aes-sha2", "ciphertext": ciphertext,
                                                    "sender_key": "k", "session_id": "s", "device_id": "D"],
                          type: "m.room.encrypted")

        let plans = try bo.other.createRoom(name: "Plans", preset: .privateChat, invite: [me])

        var reader = Reader(ann)
        try reader.sync()
        let rows = Dictionary(uniqueKeysWithValues: reader.rooms.summaries.map { ($0.key, $0) })
        func row(_ room: String) throws -> ThreadSummary { try XCTUnwrap(rows[.room(account: me, roomID: room)], room) }

        XCTAssertEqual(Set(rows.keys), Set([lobby, direct, secret, plans].map { ThreadKey.room(account: me, roomID: $0) }))
        let lobbyRow = try row(lobby)
        XCTAssertEqual(lobbyRow.name, "Lobby")
        XCTAssertEqual([lobbyRow.unread, lobbyRow.highlights], [3, 1], "three messages from others, one mentioning the reader")
        XCTAssertEqual(reader.serverCounts(lobby), [3, 1])
        // Markup, as the feed keeps a plain-text message: its colon escaped so it shows as written.
        XCTAssertEqual([lobbyRow.preview, lobbyRow.author], ["Ann\\: look here", "Cy"])
        XCTAssertFalse(lobbyRow.isPrivate || lobbyRow.isDirect || lobbyRow.isEncrypted)

        let directRow = try row(direct)
        XCTAssertEqual(directRow.name, "Cy", "no name: named after the hero")
        XCTAssertTrue(directRow.isDirect && directRow.isPrivate)
        XCTAssertEqual([directRow.preview, directRow.author], ["psst", "Cy"])
        XCTAssertEqual(reader.serverCounts(direct), [directRow.unread, directRow.highlights])
        XCTAssertGreaterThanOrEqual(directRow.unread, 1)

        let secretRow = try row(secret)
        XCTAssertEqual(secretRow.name, "Vault")
        XCTAssertTrue(secretRow.isEncrypted)
        XCTAssertEqual(secretRow.preview, MatrixEncryptedEvent.body)
        XCTAssertEqual(secretRow.author, "Bo")
        XCTAssertFalse(rows.values.contains { $0.preview?.contains(ciphertext) == true }, "never the ciphertext")
        XCTAssertEqual(reader.serverCounts(secret), [secretRow.unread, secretRow.highlights])

        let invite = try row(plans)
        XCTAssertEqual(invite.name, "Plans")
        XCTAssertEqual(invite.invite, ThreadSummary.Invite(inviter: "Bo"))
        XCTAssertEqual(invite.activity, reader.firstSyncTime, "Synapse's invite has no time: when it was first seen")

        // Another user's message: only the lobby changes, incrementally.
        let news = try bo.other.sendText(roomID: lobby, body: "news")
        try reader.sync(room: lobby) { $0?.preview == "news" }
        let updated = try XCTUnwrap(reader.rooms.summary(roomID: lobby))
        XCTAssertEqual([updated.name, updated.author], ["Lobby", "Bo"])
        XCTAssertEqual([updated.unread, updated.highlights], [4, 1])
        XCTAssertEqual(reader.rooms.summary(roomID: direct), directRow, "a room the answer does not carry stays as it was")
        XCTAssertEqual(reader.rooms.summaries.first?.key, .room(account: me, roomID: lobby), "newest activity first")

        // The reader's read receipt: the next answer clears the count.
        try ann.client.setReadMarkers(room: lobby, eventID: news, privately: false)
        try reader.sync(room: lobby) { $0?.unread == 0 }
        XCTAssertEqual(reader.rooms.summary(roomID: lobby)?.highlights, 0)
        XCTAssertEqual(reader.rooms.fullyRead(roomID: lobby), news)
    }

    func testACachedHomeShowsWithNoRequestAndResumesFromItsToken() throws {
        let server = try server
        let ann = try registerUser("ann", displayName: "Ann", on: server)
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let direct = try bo.other.createRoom(preset: .trustedPrivateChat, invite: [ann.account.userID])
        try ann.other.join(direct)
        try bo.other.sendText(roomID: direct, body: "one")
        var reader = Reader(ann)
        try reader.sync()
        let environment = temporaryDataEnvironment()
        let cache = try XCTUnwrap(HomeCache(account: ann.account.userID, environment: environment))
        try cache.save(.init(rooms: reader.rooms, nextBatch: try XCTUnwrap(reader.since)))
        let before = try XCTUnwrap(reader.rooms.summary(roomID: direct))
        XCTAssertEqual(before.name, "Bo")

        // Restarted: the rows come from the file alone, then the next answer goes on from its token.
        try bo.other.sendText(roomID: direct, body: "two")
        let loaded = try XCTUnwrap(try cache.load())
        XCTAssertEqual(loaded.rooms.summary(roomID: direct), before, "as it was, with no request")
        var restarted = Reader(ann)
        restarted.rooms = loaded.rooms
        restarted.since = loaded.nextBatch
        try restarted.sync(room: direct) { $0?.preview == "two" }
        let after = try XCTUnwrap(restarted.rooms.summary(roomID: direct))
        XCTAssertEqual(after.name, "Bo", "named from the cache's heroes: the incremental answer does not repeat them")
        XCTAssertEqual(after.unread, before.unread + 1)
        XCTAssertEqual(restarted.serverCounts(direct)[0], after.unread)
    }

    func testAnInviteAcceptedIsJoinedOneDeclinedGoesAndALeftRoomGoes() throws {
        let server = try server
        let ann = try registerUser("ann", displayName: "Ann", on: server)
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let me = ann.account.userID
        let accepted = try bo.other.createRoom(name: "Accept me", preset: .privateChat, invite: [me])
        let declined = try bo.other.createRoom(name: "Decline me", preset: .privateChat, invite: [me])
        var reader = Reader(ann)
        try reader.sync()
        XCTAssertNotNil(reader.rooms.summary(roomID: accepted)?.invite)
        XCTAssertNotNil(reader.rooms.summary(roomID: declined)?.invite)

        XCTAssertEqual(try ann.client.join(accepted), accepted)
        try ann.client.leave(room: declined)
        try reader.sync(room: declined) { $0 == nil }
        try reader.sync(room: accepted) { $0 != nil && $0?.invite == nil }
        XCTAssertEqual(reader.rooms.summary(roomID: accepted)?.name, "Accept me")
        XCTAssertEqual(try bo.other.call("GET", "/_matrix/client/v3/rooms/\(escape(declined))/joined_members")["joined"]
            .map { ($0 as? [String: Any])?.keys.sorted() ?? [] }, [bo.account.userID], "declined: never joined")

        try ann.client.leave(room: accepted, reason: "moving on")
        try reader.sync(room: accepted) { $0 == nil }
        try ann.client.forget(room: accepted)
        XCTAssertEqual(try ann.client.joinedRooms(), [])
        XCTAssertThrowsError(try ann.client.leave(room: "!nowhere:\(server.baseURL.host ?? "x")"), "a room never known is refused")
    }

    private func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? segment
    }
}
