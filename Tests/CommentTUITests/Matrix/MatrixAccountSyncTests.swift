import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// An account's one sync against the real Synapse: the rooms open on it make one stream of
/// `/sync` requests between them, each hears its own room, and what a room's opening already
/// had, given again by the account's sync, is neither shown twice nor taken for a gap.
final class MatrixAccountSyncTests: SharedSynapseTestCase {
    func testTwoRoomsOfOneAccountFollowOneSyncAndEachHearsAnotherUser() throws {
        let server = try server
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let ann = try registerUser("ann", on: server)
        let rooms = try ["First", "Second"].map { name in
            let room = try bo.other.createRoom(name: name, preset: .publicChat)
            _ = try ann.other.join(room)
            try bo.other.sendText(roomID: room, body: "post of \(name)")
            return room
        }
        // Every request of Ann's client goes through a front that lists them.
        let upstream = server.baseURL
        let front = try ScriptedHomeserver { .forwarded($0, to: upstream) }
        defer { front.stop() }
        let client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let sync = MatrixAccountSync(client: client)
        defer { sync.stop() }
        let sources = try rooms.map { room in
            try MatrixThreadSource(client: client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                   me: ann.account.userID, environment: [:], usesCache: false, accountSync: sync)
        }
        defer { sources.forEach { $0.stop() } }
        // Both follow: the account's long poll waits on Synapse.
        let polling = Date().addingTimeInterval(15)
        while !front.requests.contains(where: { $0.path.hasSuffix("/sync") && $0.target.contains("timeout=30000") }), Date() < polling {
            Thread.sleep(forTimeInterval: 0.1)
        }

        for (room, name) in zip(rooms, ["first", "second"]) { try bo.other.sendText(roomID: room, body: "to the \(name)") }
        for (source, name) in zip(sources, ["first", "second"]) {
            let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "to the \(name)" } }
            XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["to the \(name)"], "each room hears its own, once")
        }
        // The first closed: it hears nothing more, and the second follows on the same sync.
        sources[0].close()
        for room in rooms { try bo.other.sendText(roomID: room, body: "after the first closed") }
        let later = try collectUpdates(from: sources[1]) { $0.flatMap(\.appended).contains { $0.body == "after the first closed" } }
        XCTAssertEqual(later.flatMap(\.appended).map(\.body), ["after the first closed"])
        XCTAssertTrue(sources[0].takeUpdates().flatMap(\.appended).isEmpty)
        sync.stop()
        let syncs = front.requests.filter { $0.path.hasSuffix("/sync") }
        // The account's sync asks with its filter (the only one with receipts); the rooms' own
        // syncs (their openings, the second's catch-up) never wait on the server.
        let accounts = syncs.filter { $0.target.contains("m.receipt") }
        let oneOff = syncs.filter { !$0.target.contains("m.receipt") }
        XCTAssertTrue(oneOff.allSatisfy { $0.target.contains("timeout=0") }, "no long poll but the account's: \(oneOff.map(\.target))")
        // The first opening's two syncs (the account's had no position yet); the second's two
        // as well, or none when the account's sync had answered by then (it opens from its
        // position); a catch-up for the second unless the account's sync stood where it opened.
        XCTAssertTrue((2...5).contains(oneOff.count), "\(oneOff.map(\.target))")
        XCTAssertEqual(oneOff.filter { !$0.target.contains("since=") }.count, oneOff.count >= 4 ? 2 : 1, "\(oneOff.map(\.target))")
        XCTAssertGreaterThanOrEqual(accounts.count, 2)
        XCTAssertLessThanOrEqual(accounts.count, sync.syncRequests, "every account sync is the one stream's")
        XCTAssertGreaterThanOrEqual(accounts.count, sync.syncRequests - 1)
        print("\(accounts.count) account syncs for two rooms; \(oneOff.count) one-off room syncs")
    }

    func testWhatTheOpeningHadComesAgainFromTheAccountsSyncAndIsNeitherShownTwiceNorAGap() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Overlap", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        // The account's position before what follows: its first answer gives all of it again.
        let before = try XCTUnwrap(ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0)["next_batch"]?.string)
        let first = try bo.other.sendText(roomID: room, body: "early 1")
        for n in 2...15 { try bo.other.sendText(roomID: room, body: "early \(n)") }
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "* early one",
            "m.new_content": ["msgtype": "m.text", "body": "early one"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": first],
        ])
        let again = try ann.client.sync(since: before, filter: MatrixAccountFilter.lean, wait: 0)
        XCTAssertEqual(again["rooms"]?["join"]?[room]?["timeline"]?["limited"], true, "more came than the account's sync gives a room")
        let sync = MatrixAccountSync(client: ann.client, since: before)
        defer { sync.stop() }
        let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: [:], usesCache: false, accountSync: sync)
        defer { source.stop() }
        XCTAssertEqual(source.opened.comments.map(\.body), ["early one"] + (2...15).map { "early \($0)" })

        try bo.other.sendText(roomID: room, body: "late")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "late" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["late"], "nothing the opening had shows again")
        XCTAssertFalse(updates.contains { if case .gap = $0 { true } else { false } }, "the batch was limited, its fill met what is known: \(updates.map(describe))")
        XCTAssertFalse(updates.contains { if case .commentEdited = $0 { true } else { false } }, "the edit is not applied twice: \(updates.map(describe))")
        XCTAssertGreaterThanOrEqual(sync.syncRequests, 1)
    }

    /// A room opened with no account's sync given (the verbs, `comment-tui matrix:ROOM`) makes
    /// its own, starts it with the room and stops it when the room closes.
    func testARoomOpenedAloneRunsASyncOfItsOwnUntilItCloses() throws {
        let (bo, ann, room) = try twoUsersInARoom("Alone", on: try server)
        let source = try open(room, as: ann)
        defer { source.stop() }
        XCTAssertTrue(source.ownsAccountSync && source.accountSync.isRunning)
        try bo.other.sendText(roomID: room, body: "heard")
        try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "heard" } }
        source.close()
        XCTAssertFalse(source.accountSync.isRunning, "stopped with the room")
    }

    /// A room opened from its offline copy on a sync already past the copy's position: what
    /// came while it was closed reaches it only through a catch-up of its own, which goes first;
    /// the account's answers wait meanwhile.
    func testARoomOpenedFromItsCopyOnARunningSyncCatchesUpByItselfFirst() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Catching up", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        let environment = temporaryDataEnvironment()
        try open(room, as: ann, follows: false, environment: environment).stop()   // leaves the offline copy
        for n in 1...3 { try bo.other.sendText(roomID: room, body: "while away \(n)") }
        let sync = MatrixAccountSync(client: ann.client)
        defer { sync.stop() }
        sync.start()
        // Answered once (from an initial sync, past the copy) and long polling.
        let polling = Date().addingTimeInterval(15)
        while sync.syncRequests < 2 || sync.connection != .live, Date() < polling { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(sync.connection, .live)

        let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: environment, accountSync: sync)
        defer { source.stop() }
        XCTAssertTrue(source.isCatchingUp, "opened from the copy")
        try bo.other.sendText(roomID: room, body: "after opening")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "after opening" } && $0.contains(where: Self.isCaughtUp) }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["while away 1", "while away 2", "while away 3", "after opening"])
        let caughtUp = try XCTUnwrap(updates.firstIndex(where: Self.isCaughtUp))
        XCTAssertTrue(updates[..<caughtUp].flatMap(\.appended).map(\.body).contains("while away 3"), "caught up after what came while away")
    }

    private static func isCaughtUp(_ update: ThreadUpdate) -> Bool { if case .caughtUp = update { true } else { false } }

    /// A process exits right after the client closes: the sync's thread must be out of its
    /// request by then (OpenSSL's cleanup at exit once crashed under a request in flight).
    func testStoppingWaitsForTheLongPollInFlightToEnd() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let upstream = server.baseURL
        let front = try ScriptedHomeserver { .forwarded($0, to: upstream) }
        defer { front.stop() }
        let sync = MatrixAccountSync(client: MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken))
        sync.start()
        let polling = Date().addingTimeInterval(15)
        while !front.requests.contains(where: { $0.path.hasSuffix("/sync") && $0.target.contains("timeout=30000") }), Date() < polling {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertFalse(sync.hasEnded, "long-polling")
        let started = Date()
        sync.stop()
        XCTAssertTrue(sync.hasEnded, "stop returned with the thread still in its request")
        XCTAssertLessThan(Date().timeIntervalSince(started), MatrixAccountSync.stopWait, "the request was cancelled, not waited out")
    }
}
