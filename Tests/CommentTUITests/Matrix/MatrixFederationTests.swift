import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A room shared by users of two federating homeservers works like one on a single server:
/// it opens by an alias of the other server (joined over federation), both servers' `marco`s
/// are told apart, and comments cross in both directions.
///
/// Two Synapses start once for the class (together) and stop by their pids. The room lives on
/// `roomServer`; `visitorServer`'s users reach it over TLS federation on 127.0.0.1.
final class MatrixFederationTests: XCTestCase {
    /// The servers and users of the class; set in `class setUp`, cleared in `class tearDown`
    /// (XCTest runs those and the tests on one thread).
    nonisolated(unsafe) private static var cast: Cast?
    nonisolated(unsafe) private static var startFailure: String?

    /// Who takes part: two users named `marco`, one per server, and `ann` beside the room's marco.
    private struct Cast {
        var roomServer: SynapseServer
        var visitorServer: SynapseServer
        /// `@marco:<roomServer>`, who creates the rooms.
        var roomMarco: MatrixTestUser
        /// `@ann:<roomServer>`, another client on the room's server.
        var ann: MatrixTestUser
        /// `@marco:<visitorServer>`: the same localpart on the other server.
        var visitingMarco: MatrixTestUser
    }

    override class func setUp() {
        super.setUp()
        do {
            let roomServer = try SynapseServer.federating()
            let visitorServer = try SynapseServer.federating()
            let started = Date()
            try SynapseServer.startTogether([roomServer, visitorServer])
            print("MatrixFederationTests: two federating servers started in \(seconds(since: started))")
            cast = Cast(
                roomServer: roomServer, visitorServer: visitorServer,
                roomMarco: try user("marco", displayName: "Marco Polo", on: roomServer),
                ann: try user("ann", displayName: "Ann", on: roomServer),
                visitingMarco: try user("marco", displayName: "Marco Pantani", on: visitorServer))
        } catch {
            // Recorded by every test through `theCast()`, never skipped.
            startFailure = "\(error)"
        }
    }

    override class func tearDown() {
        cast?.roomServer.stop()
        cast?.visitorServer.stop()
        cast = nil
        super.tearDown()
    }

    func testARoomOfTheOtherServerOpensByAliasAndBothMarcosAreToldApart() throws {
        let cast = try theCast()
        let (roomMarco, visitor) = (cast.roomMarco, cast.visitingMarco)
        let room = try roomMarco.other.createRoom(name: "Ferry times", preset: .publicChat, alias: "ferries")
        try roomMarco.other.sendText(roomID: room, body: "Which ferry do we take to Korčula")
        try roomMarco.other.sendText(roomID: room, body: "the early one")
        let roomSide = try open(room, as: roomMarco)
        defer { roomSide.stop() }

        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:#ferries:\(cast.roomServer.serverName)"))
        let joining = Date()
        let visitorSide = try MatrixThreadSource(client: visitor.client, address: address, me: visitor.account.userID,
                                                 environment: [:], follows: true)
        defer { visitorSide.stop() }
        print("MatrixFederationTests: opened over federation (resolve, join, first sync) in \(Self.seconds(since: joining))")

        XCTAssertEqual(visitorSide.roomID, room)
        XCTAssertEqual(visitorSide.thread.title, "Ferry times")
        XCTAssertEqual(visitorSide.thread.author, roomMarco.account.userID)
        XCTAssertEqual(visitorSide.thread.body, "Which ferry do we take to Korčula")
        // Only what came since the join is on the visitor's server: the comment before it comes
        // as an older page (the server backfills it), as the app asks when the feed is short.
        XCTAssertTrue(visitorSide.hasOlderComments)
        visitorSide.loadOlderComments()
        let older = try collectUpdates(from: visitorSide, timeout: 30) { updates in
            updates.contains { if case .olderComments = $0 { true } else { false } }
        }
        let olderBodies = older.flatMap { update -> [String] in if case .olderComments(let list, _) = update { list.map(\.body) } else { [] } }
        XCTAssertEqual(olderBodies, ["the early one"], "the post is the header, not a comment")
        XCTAssertEqual(visitorSide.label, "#ferries:\(cast.roomServer.serverName)")

        // Each side's own marco keeps the bare localpart; the other server's is qualified by
        // its server name, made a handle (`127.0.0.1:PORT` → `127.0.0.1_PORT`).
        let roomMarcoSeenByVisitor = try XCTUnwrap(visitorSide.thread.user(id: roomMarco.account.userID))
        XCTAssertEqual(roomMarcoSeenByVisitor.handle, "marco.127.0.0.1_\(try XCTUnwrap(cast.roomServer.federationPort))")
        XCTAssertEqual(roomMarcoSeenByVisitor.name, "Marco Polo")
        XCTAssertEqual(visitorSide.reader.handle, "marco")
        XCTAssertEqual(visitorSide.reader.name, "Marco Pantani")

        // The room's side learns of the visitor live, from its sync.
        let qualifiedVisitor = "marco.127.0.0.1_\(try XCTUnwrap(cast.visitorServer.federationPort))"
        let joined = try collectUpdates(from: roomSide, timeout: 30) { updates in
            updates.contains { if case .usersChanged(let users) = $0 { users.contains { $0.id == visitor.account.userID } } else { false } }
        }
        let visitorSeenByRoom = joined.compactMap { update -> User? in
            if case .usersChanged(let users) = update { users.last { $0.id == visitor.account.userID } } else { nil }
        }.last
        XCTAssertEqual(visitorSeenByRoom?.handle, qualifiedVisitor)
        XCTAssertEqual(visitorSeenByRoom?.name, "Marco Pantani")
        XCTAssertEqual(roomSide.reader.handle, "marco")

        // A reopen from the room's side sees the same, from the joined members.
        let reopened = try open(room, as: roomMarco, follows: false)
        XCTAssertEqual(reopened.thread.user(id: visitor.account.userID)?.handle, qualifiedVisitor)
        XCTAssertEqual(reopened.thread.user(id: visitor.account.userID)?.name, "Marco Pantani")
        XCTAssertEqual(reopened.thread.user(id: roomMarco.account.userID)?.handle, "marco")
        for user in visitorSide.thread.users + reopened.thread.users { XCTAssertTrue(Handle.isValid(user.handle), user.handle) }
    }

    func testCommentsCrossBetweenTheServersBothWays() throws {
        let cast = try theCast()
        let (roomMarco, ann, visitor) = (cast.roomMarco, cast.ann, cast.visitingMarco)
        let room = try roomMarco.other.createRoom(name: "Crossing", preset: .publicChat, alias: "crossing")
        try roomMarco.other.sendText(roomID: room, body: "The crossing, and who pays")
        try ann.other.join(room)
        let roomSide = try open(room, as: roomMarco)
        defer { roomSide.stop() }
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:#crossing:\(cast.roomServer.serverName)"))
        let visitorSide = try MatrixThreadSource(client: visitor.client, address: address, me: visitor.account.userID,
                                                 environment: [:], follows: true)
        defer { visitorSide.stop() }
        let roomMarcoHandle = try XCTUnwrap(visitorSide.thread.user(id: roomMarco.account.userID)?.handle)

        // The visitor's comment, mentioning the other marco by the handle the visitor sees.
        let fromVisitor = comment(by: visitor, "@\(roomMarcoHandle) I pay the ferry")
        var sent = Date()
        XCTAssertEqual(visitorSide.send(fromVisitor), .pending)
        try collectUpdates(from: visitorSide, timeout: 30) { $0.contains { if case .sendConfirmed(fromVisitor.id) = $0 { true } else { false } } }
        let arrived = try collectUpdates(from: roomSide, timeout: 30) { $0.flatMap(\.appended).contains { $0.body.hasSuffix("I pay the ferry") } }
        print("MatrixFederationTests: visitor → room server delivered in \(Self.seconds(since: sent))")
        let atRoom = try XCTUnwrap(arrived.flatMap(\.appended).first { $0.body.hasSuffix("I pay the ferry") })
        XCTAssertEqual(atRoom.author, visitor.account.userID)
        XCTAssertEqual(atRoom.body, "@marco I pay the ferry", "the room's side names its own marco bare")
        let event = try XCTUnwrap(roomMarco.other.messages(roomID: room).first {
            ($0["content"] as? [String: Any])?["body"] as? String == "Marco Polo I pay the ferry"
        }, "another client on the room's server sees it in /messages, the mention by display name (the handle is ours alone)")
        XCTAssertEqual(event["sender"] as? String, visitor.account.userID)
        XCTAssertEqual(((event["content"] as? [String: Any])?["m.mentions"] as? [String: Any])?["user_ids"] as? [String],
                       [roomMarco.account.userID], "the mention is of the room server's marco, not the visitor's own")

        // The room's marco answers through our source, ann through another client.
        let visitorHandle = try XCTUnwrap(knownHandle(of: visitor, in: roomSide), "the room's side knows the visitor by now")
        XCTAssertEqual(visitorHandle, "marco.127.0.0.1_\(try XCTUnwrap(cast.visitorServer.federationPort))")
        let fromRoom = comment(by: roomMarco, "@\(visitorHandle) deal")
        sent = Date()
        XCTAssertEqual(roomSide.send(fromRoom), .pending)
        // The send goes out on the source's own queue: ann speaks after the server has it, so
        // the order the last assertion reads is the order the room got them.
        try collectUpdates(from: roomSide, timeout: 30) { $0.contains { if case .sendConfirmed(fromRoom.id) = $0 { true } else { false } } }
        try ann.other.sendText(roomID: room, body: "and I bring the figs")
        let atVisitor = try collectUpdates(from: visitorSide, timeout: 30) { updates in
            let bodies = updates.flatMap(\.appended).map(\.body)
            return bodies.contains("@marco deal") && bodies.contains("and I bring the figs")
        }
        print("MatrixFederationTests: room server → visitor delivered (two comments) in \(Self.seconds(since: sent))")
        let answer = try XCTUnwrap(atVisitor.flatMap(\.appended).first { $0.body == "@marco deal" })
        XCTAssertEqual(answer.author, roomMarco.account.userID)
        XCTAssertEqual(visitorSide.thread.user(id: ann.account.userID)?.handle, "ann", "no other ann: bare, though remote")
        XCTAssertEqual(visitorSide.thread.user(id: ann.account.userID)?.name, "Ann")
        XCTAssertEqual(try visitor.other.messageBodies(roomID: room).suffix(3),
                       ["Marco Polo I pay the ferry", "Marco Pantani deal", "and I bring the figs"])
    }

    func testARoomIDWithViaJoinsThroughTheNamedServer() throws {
        let cast = try theCast()
        let (roomMarco, visitor) = (cast.roomMarco, cast.visitingMarco)
        let room = try roomMarco.other.createRoom(name: "No alias", preset: .publicChat)
        try roomMarco.other.sendText(roomID: room, body: "Reached by id")

        // By id alone the visitor's server knows no server in the room: refused, with the way out.
        XCTAssertThrowsError(try open(room, as: visitor, follows: false)) { error in
            let message = (error as? MatrixError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("not joined to \(room)") && message.contains("?via="), message)
        }
        let link = "https://matrix.to/#/\(room)?via=\(cast.roomServer.serverName)"
        let address = try XCTUnwrap(MatrixRoomAddress(locator: link))
        let visitorSide = try MatrixThreadSource(client: visitor.client, address: address, me: visitor.account.userID,
                                                 environment: [:], follows: false)
        defer { visitorSide.stop() }
        XCTAssertEqual(visitorSide.roomID, room)
        XCTAssertEqual(visitorSide.thread.title, "No alias")
        XCTAssertTrue(try visitor.client.joinedRooms().contains(room))
        XCTAssertEqual(try roomMarco.client.joinedMembers(room: room).keys.sorted(),
                       [roomMarco.account.userID, visitor.account.userID].sorted(), "the room's server sees the visitor join")
    }

    func testNewWithAnotherServersAliasRefusesInsteadOfMakingItOnOurs() throws {
        let cast = try theCast()
        let visitor = cast.visitingMarco
        let config = try temporaryDirectory(self).path
        var accounts = try MatrixAccounts(path: config + "/comment-tui/accounts.json")
        accounts.add(.init(userID: visitor.account.userID, homeserver: cast.visitorServer.baseURL.absoluteString,
                           accessToken: visitor.account.accessToken, deviceID: "TEST"))
        try accounts.save()
        let environment = ["XDG_CONFIG_HOME": config, "HOME": config]
        let localpart = "elsewhere-\(UUID().uuidString.prefix(6).lowercased())"
        let other = cast.roomServer.serverName, ours = cast.visitorServer.serverName

        let refused = VerbRun(.new, ["matrix:#\(localpart):\(other)", "--title", "Elsewhere"], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.error, """
            comment-tui new: #\(localpart):\(other) is an alias on \(other), and new makes rooms on your own server: use matrix:#\(localpart):\(ours)

            """)
        XCTAssertEqual(refused.text, "")
        XCTAssertThrowsError(try visitor.client.resolve(alias: "#\(localpart):\(ours)"), "nothing was made on our server")
        let made = VerbRun(.new, ["matrix:#\(localpart):\(ours)", "--title", "Here"], environment: environment)
        XCTAssertEqual(made.status, 0, made.error)
        XCTAssertEqual(try visitor.client.resolve(alias: "#\(localpart):\(ours)"), made.text.trimmingCharacters(in: .newlines))
    }

    // MARK: Helpers

    private func theCast() throws -> Cast {
        if let failure = Self.startFailure { XCTFail(failure) }
        return try XCTUnwrap(Self.cast, "the federating Synapses did not start")
    }

    /// The handle a source gives a user now, also one who joined after it opened (`thread.users` is the opening's).
    private func knownHandle(of user: MatrixTestUser, in source: MatrixThreadSource) -> String? {
        source.locked { source.timeline.members.handles[user.account.userID] }
    }

    /// Registers exactly `localpart` (no unique suffix: the point is the same name on two servers).
    private static func user(_ localpart: String, displayName: String, on server: SynapseServer) throws -> MatrixTestUser {
        let account = try server.register(localpart: localpart, password: "pw-\(localpart)", displayName: displayName)
        return MatrixTestUser(account: account, other: server.client(for: account),
                              client: MatrixClient(homeserver: server.baseURL, accessToken: account.accessToken), localpart: localpart)
    }

    private static func seconds(since start: Date) -> String {
        String(format: "%.2f s", Date().timeIntervalSince(start))
    }
}
