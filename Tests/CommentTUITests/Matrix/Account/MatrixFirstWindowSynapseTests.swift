import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Home's first window on the real Synapse: the rows its sliding-sync answer makes are the
/// rows the whole initial sync makes for the same rooms, the newest first; a cold start lists
/// them before the initial sync answers, says how many more are coming, then lists them all.
final class MatrixFirstWindowSynapseTests: SharedSynapseTestCase {
    /// An account in eight rooms: six public ones, a direct one, an invite (the newest), with
    /// a mention in one and messages in each, so rows differ in every field a row shows.
    private struct World {
        var ann: MatrixTestUser
        var rooms: [String]
    }

    private func makeWorld() throws -> World {
        let server = try server
        let ann = try registerUser("ann", displayName: "Ann", on: server)
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let cy = try registerUser("cy", displayName: "Cy", on: server)
        let me = ann.account.userID
        var rooms: [String] = []
        for n in 1...6 {
            let room = try bo.other.createRoom(name: "Room \(n)", preset: .publicChat)
            try ann.other.join(room)
            try bo.other.sendText(roomID: room, body: "news \(n) for *everyone*")
            rooms.append(room)
        }
        try cy.other.join(rooms[4])
        try cy.other.send(roomID: rooms[4], content: ["msgtype": "m.text", "body": "Ann: look", "m.mentions": ["user_ids": [me]]])
        let direct = try cy.other.createRoom(preset: .trustedPrivateChat, invite: [me])
        try ann.other.join(direct)
        try ann.other.call("PUT", "/_matrix/client/v3/user/\(MatrixTestClient.escape(me))/account_data/m.direct",
                           body: [cy.account.userID: [direct]])
        try cy.other.sendText(roomID: direct, body: "psst")
        rooms.append(direct)
        rooms.append(try bo.other.createRoom(name: "Plans", preset: .privateChat, invite: [me]))
        return World(ann: ann, rooms: rooms)
    }

    func testTheWindowsRowsAreTheInitialSyncsNewestRows() throws {
        let world = try makeWorld()
        let me = world.ann.account.userID
        let client = world.ann.client
        let window = try client.request("POST", MatrixFirstWindow.path, query: ["timeout": "0"], body: MatrixFirstWindow.body(rooms: 4))
        let reading = MatrixFirstWindow.read(window, me: world.ann.account.userID)
        XCTAssertNil(reading.answer["next_batch"], "a window is no position to go on from")
        XCTAssertEqual(reading.total, 8, "six rooms, the direct one and the invite")
        let seen = Date()
        var windowed = MatrixAccountRooms(account: me)
        windowed.apply(sync: reading.answer, at: seen)
        var whole = MatrixAccountRooms(account: me)
        whole.apply(sync: try client.sync(since: nil, filter: MatrixAccountFilter.lean, wait: 0), at: seen)

        XCTAssertEqual(whole.summaries.count, 8)
        let newest = Array(whole.summaries.prefix(4))
        XCTAssertEqual(newest.map(\.name), ["Plans", "Cy", "Room 5", "Room 6"], "the invite, then by the newest message")
        XCTAssertEqual([newest[2].unread, newest[2].highlights], [2, 1])
        // Every field of each row as the whole sync says it, but the counts: Synapse's window
        // gives 0 for all, so none are taken from it (the rows say theirs are coming).
        let uncounted = newest.map { row -> ThreadSummary in
            var row = row
            (row.unread, row.highlights) = (0, 0)
            return row
        }
        XCTAssertEqual(windowed.summaries, uncounted)
        XCTAssertTrue(windowed.summaries[1].isDirect, "direct, from the account data the window brings")
    }

    func testAColdStartListsTheNewestRoomsFirstThenTheWholeList() throws {
        let world = try makeWorld()
        let user = world.ann.account
        let account = MatrixAccounts.Account(userID: user.userID, homeserver: try server.baseURL.absoluteString,
                                             accessToken: user.accessToken, deviceID: user.deviceID)
        let mailbox = try ClientMailbox()
        let link = AccountLink(account: account, client: world.ann.client, environment: [:], usesCache: false,
                               mailbox: mailbox, firstWindow: 3)
        defer { link.close() }
        link.start()
        var lists: [[ThreadSummary]] = []
        var coming: [Int?] = []
        let deadline = Date().addingTimeInterval(30)
        while coming.count < 2 || lists.last?.count != 8, Date() < deadline {
            for message in mailbox.take() {
                if case .summaries(_, let rows) = message { lists.append(rows) }
                if case .roomsComing(_, let count) = message { coming.append(count) }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let whole = try XCTUnwrap(lists.last)
        XCTAssertEqual(whole.count, 8)
        let first = try XCTUnwrap(lists.first)
        XCTAssertEqual(first.map(\.key), Array(whole.prefix(3)).map(\.key), "the three newest first")
        XCTAssertTrue(first.allSatisfy(\.countsPending), "listed before their counts came")
        XCTAssertFalse(whole.contains(where: \.countsPending))
        XCTAssertEqual(whole.first { $0.name == "Room 5" }?.highlights, 1)
        XCTAssertEqual(coming, [5, nil], "five more coming, then the whole list")
    }
}
