import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A room opened on its account's running sync, against the real Synapse: it opens from the
/// sync's position with no sync of its own (Synapse answers an initial sync, even of one room,
/// by walking every joined room), shows what an opening by sync shows, and hears what came
/// after the position once, whether it came before, while or after it opened.
final class MatrixPositionOpeningTests: SharedSynapseTestCase {
    func testARoomOpenedOnARunningAccountSyncMakesNoSyncOfItsOwnAndShowsWhatASyncOpeningShows() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("At the position", on: server)
        let carl = try registerUser("carl", displayName: "Carl", on: server)
        _ = try carl.other.join(room)
        try bo.other.sendText(roomID: room, body: "The post")
        var sent: [String] = []
        for n in 1...(MatrixThreadSource.pageSize + 10) { sent.append(try bo.other.sendText(roomID: room, body: "message \(n)")) }
        try carl.other.sendText(roomID: room, body: "Carl is newest")
        try ann.client.setReadMarkers(room: room, eventID: sent[54], privately: true)
        // Every request of Ann's client goes through a front that lists them.
        let upstream = server.baseURL
        let front = try ScriptedHomeserver { .forwarded($0, to: upstream) }
        defer { front.stop() }
        let client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let sync = try runningSync(of: client)
        defer { sync.stop() }

        let before = front.requests.count
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let source = try MatrixThreadSource(client: client, address: address, me: ann.account.userID, environment: [:],
                                            usesCache: false, accountSync: sync)
        defer { source.stop() }
        // The account's sync asks with its filter (the only one with receipts); the opening's
        // own would not.
        let opening = front.requests.dropFirst(before).filter { $0.path.hasSuffix("/sync") && !$0.target.contains("m.receipt") }
        XCTAssertEqual(opening.map(\.target), [], "the opening made no sync of its own")

        XCTAssertEqual(source.opened.comments.last?.body, "Carl is newest")
        XCTAssertEqual(source.thread.title, "At the position")
        XCTAssertTrue(source.thread.body.contains("The post"), source.thread.body)
        XCTAssertEqual(source.loadReadMarker()?.commentID, sent[54])
        XCTAssertTrue(source.users.contains { $0.id == carl.account.userID && $0.name == "Carl" }, "\(source.users)")
        XCTAssertTrue(source.hasOlderComments)
        // The same room opened by an initial sync, as a room opened alone does.
        let alone = try open(room, as: ann, follows: false, usesCache: false)
        defer { alone.stop() }
        XCTAssertEqual(source.opened.comments.map(\.id), alone.opened.comments.map(\.id))
        XCTAssertEqual(source.opened.comments.map(\.body), alone.opened.comments.map(\.body))
        XCTAssertEqual([source.thread.title, source.thread.author, source.thread.body],
                       [alone.thread.title, alone.thread.author, alone.thread.body])
        XCTAssertEqual(source.loadReadMarker(), alone.loadReadMarker())
        XCTAssertEqual(Set(source.users.map { "\($0.id) \($0.name)" }), Set(alone.users.map { "\($0.id) \($0.name)" }))

        try bo.other.sendText(roomID: room, body: "late")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "late" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["late"], "nothing the opening had comes again")
    }

    /// The read marker just before the newest page: one page more is read, as an opening by
    /// sync reads it, so both open with the same comments and the same marker.
    func testAReadMarkerJustBeforeThePageOpensAsBySync() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Marker before", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        var sent: [String] = []
        for n in 1...(MatrixThreadSource.pageSize + 20) { sent.append(try bo.other.sendText(roomID: room, body: "message \(n)")) }
        try ann.client.setReadMarkers(room: room, eventID: sent[9], privately: true)
        let position = try XCTUnwrap(ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0)["next_batch"]?.string)
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let opening = try MatrixRoomOpening(client: ann.client, address: address, me: ann.account.userID,
                                            pageSize: MatrixThreadSource.pageSize, position: position)
        let bySync = try MatrixRoomOpening(client: ann.client, address: address, me: ann.account.userID, pageSize: MatrixThreadSource.pageSize)
        XCTAssertEqual(opening.fullyRead, sent[9])
        XCTAssertNotNil(opening.fullyReadPosition, "the page read back holds the marker")
        XCTAssertEqual(opening.comments.map(\.id), bySync.comments.map(\.id))
        XCTAssertEqual(opening.fullyReadPosition, bySync.fullyReadPosition)
        XCTAssertEqual(opening.olderToken != nil, bySync.olderToken != nil)
    }

    /// The account's sync moved past the position between reading it and the room following
    /// it: the room catches up by itself from its position, and hears each message once.
    func testWhatCameAfterThePositionArrivesOnceWhenTheSyncMovedOnWhileTheRoomOpened() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Moving on", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "before")
        let sync = try runningSync(of: ann.client)
        defer { sync.stop() }
        let position = try XCTUnwrap(sync.position)
        for n in 1...3 { try bo.other.sendText(roomID: room, body: "meanwhile \(n)") }
        let moving = Date().addingTimeInterval(15)
        while sync.position == position, Date() < moving { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertNotEqual(sync.position, position, "the account's sync heard them before the room followed it")

        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let opening = try MatrixRoomOpening(client: ann.client, address: address, me: ann.account.userID,
                                            pageSize: MatrixThreadSource.pageSize, position: position)
        XCTAssertEqual(opening.nextBatch, position)
        XCTAssertEqual(opening.comments.last?.body, "before", "the page ends at the position")
        XCTAssertNil(opening.olderToken, "the page holds the room's start")
        let source = try MatrixThreadSource(opening: opening, client: ann.client, environment: [:], follows: true, accountSync: sync)
        defer { source.stop() }
        try bo.other.sendText(roomID: room, body: "late")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "late" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["meanwhile 1", "meanwhile 2", "meanwhile 3", "late"])
        XCTAssertFalse(updates.contains { if case .gap = $0 { true } else { false } }, "\(updates.map(describe))")
    }

    /// The room's state is read as it is now, newer than the page: a rename after the position
    /// is the name shown, not the one on the page.
    func testAStateChangeNewerThanThePageIsTheOneShown() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("First name", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendState(roomID: room, type: "m.room.name", content: ["name": "Second name"])
        try bo.other.sendText(roomID: room, body: "newest")
        let position = try XCTUnwrap(ann.client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0)["next_batch"]?.string)
        try bo.other.sendState(roomID: room, type: "m.room.name", content: ["name": "Third name"])
        try bo.other.sendState(roomID: room, type: "m.room.topic", content: ["topic": "A topic set later"])

        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let opening = try MatrixRoomOpening(client: ann.client, address: address, me: ann.account.userID,
                                            pageSize: MatrixThreadSource.pageSize, position: position)
        XCTAssertEqual(opening.comments.last?.body, "newest", "the page ends at the position")
        XCTAssertEqual(opening.thread.title, "Third name")
        XCTAssertEqual(opening.label, "Third name")
        XCTAssertEqual(opening.nextBatch, position)
    }

    /// An encrypted room opened at the position opens to be read, as one opened by sync does.
    func testAnEncryptedRoomOpenedAtThePositionIsReadOnly() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Sealed", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: ["algorithm": "m.megolm.v1.aes-sha2"])
        let sync = try runningSync(of: ann.client)
        defer { sync.stop() }
        let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: [:], usesCache: false, accountSync: sync)
        defer { source.stop() }
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice)
    }

    /// A room the account is not in yet is joined and opened by sync, as alone: the page back
    /// from a position before the join would not hold it. What comes after arrives once.
    func testARoomNotJoinedYetIsJoinedAndHearsWhatComesAfterOnce() throws {
        let server = try server
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let ann = try registerUser("ann", on: server)
        let room = try bo.other.createRoom(name: "Not yet", preset: .publicChat)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "before Ann")
        let sync = try runningSync(of: ann.client)
        defer { sync.stop() }
        let source = try MatrixThreadSource(client: ann.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: [:], usesCache: false, accountSync: sync)
        defer { source.stop() }
        XCTAssertTrue(try ann.client.joinedRooms().contains(room))
        XCTAssertEqual(source.opened.comments.last?.body, "before Ann")
        try bo.other.sendText(roomID: room, body: "late")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "late" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["late"])
    }

    /// A room whose whole state is too big to read (tens of thousands of members; here Synapse's
    /// answer padded past the values an answer may hold) opens by sync, whose members are lazy.
    func testARoomWhoseStateIsTooBigToReadOpensBySync() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Too big", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "newest")
        let upstream = server.baseURL
        let padding = String(repeating: "0,", count: MatrixAnswerLimit.values)
        let front = try ScriptedHomeserver { request in
            guard request.path.hasSuffix("/state") else { return .forwarded(request, to: upstream) }
            return .forwarded(request, to: upstream) { "[" + padding + $0.dropFirst() }
        }
        defer { front.stop() }
        let client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let sync = try runningSync(of: client)
        defer { sync.stop() }
        let source = try MatrixThreadSource(client: client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: [:], usesCache: false, accountSync: sync)
        defer { source.stop() }
        XCTAssertTrue(front.requests.contains { $0.path.hasSuffix("/state") }, "the state was asked for")
        // The account's sync asks with its filter (the only one with receipts); the opening's own is the fallback.
        let opening = front.requests.filter { $0.path.hasSuffix("/sync") && !$0.target.contains("m.receipt") }
        XCTAssertFalse(opening.isEmpty, "opened by a sync of its own")
        XCTAssertEqual(source.opened.comments.last?.body, "newest")
        XCTAssertEqual(source.thread.title, "Too big")
        try bo.other.sendText(roomID: room, body: "late")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "late" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["late"])
    }

    /// Opened from home while the account's initial sync still runs (Synapse takes seconds at
    /// hundreds of rooms): the opening waits for its answer and opens at its position, rather
    /// than asking the server for a second initial sync, of the room.
    func testARoomOpenedWhileTheAccountsFirstSyncRunsWaitsForItsPosition() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("While syncing", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "newest")
        let upstream = server.baseURL
        // The account's initial sync (its filter asks for receipts; no `since`) answers 1.5 s late.
        let front = try ScriptedHomeserver { request in
            if request.path.hasSuffix("/sync"), request.target.contains("m.receipt"), !request.target.contains("since=") {
                Thread.sleep(forTimeInterval: 1.5)
            }
            return .forwarded(request, to: upstream)
        }
        defer { front.stop() }
        let client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let sync = MatrixAccountSync(client: client)
        sync.start()
        defer { sync.stop() }
        XCTAssertNil(sync.position)
        let source = try MatrixThreadSource(client: client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: [:], usesCache: false, accountSync: sync)
        defer { source.stop() }
        XCTAssertNotNil(sync.position, "opened once the account's sync had answered")
        let opening = front.requests.filter { $0.path.hasSuffix("/sync") && !$0.target.contains("m.receipt") }
        XCTAssertEqual(opening.map(\.target), [], "the opening made no sync of its own")
        XCTAssertEqual(source.opened.comments.last?.body, "newest")
        try bo.other.sendText(roomID: room, body: "late")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "late" } }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), ["late"])
    }

    /// An account's sync, started, once it has a position (its first answer).
    private func runningSync(of client: MatrixClient) throws -> MatrixAccountSync {
        let sync = MatrixAccountSync(client: client)
        sync.start()
        let deadline = Date().addingTimeInterval(15)
        while sync.position == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertNotNil(sync.position, "the account's sync answered")
        return sync
    }
}
