import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
import ThreadModel
@testable import CommentTUI

/// The homeserver going away mid-session, and the verbs: a server of its own, since these
/// tests stop and start it.
final class MatrixConnectionTests: OwnSynapseTestCase {
    func testTheServerStoppedAndStartedAgainMidSessionLosesNothing() throws {
        let (bo, ann, room) = try twoUsersInARoom("Flaky", on: server)
        let source = try open(room, as: ann)
        defer { source.stop() }
        server.stop()
        // A retry may say `connecting` in the batch that says `offline`: both batches count.
        let down = try collectUpdates(from: source) { $0.contains { if case .connection(.offline) = $0 { true } else { false } } }
        // Written while the server is down: kept, retried with the same transaction id.
        let mine = comment(by: ann, "written offline")
        XCTAssertEqual(source.send(mine), .pending)
        try server.start()
        try bo.other.sendText(roomID: room, body: "while you were away")
        let updates = try collectUpdates(from: source, timeout: 40) { updates in
            updates.contains { if case .connection(.live) = $0 { true } else { false } }
                && updates.flatMap(\.appended).contains { $0.body == "while you were away" }
                && updates.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } }
        }
        XCTAssertTrue((down + updates).contains { if case .connection(.connecting) = $0 { true } else { false } },
                      "\((down + updates).map(describe))")
        let bodies = try bo.other.messageBodies(roomID: room)
        XCTAssertEqual(bodies.filter { $0 == "written offline" }.count, 1, "sent once: \(bodies)")
    }

    func testARetriedSendWithTheSameTransactionIsPostedOnce() throws {
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Once", preset: .publicChat)
        let source = try open(room, as: ann)
        defer { source.stop() }
        let mine = comment(by: ann, "only once")
        _ = source.send(mine)
        _ = source.send(mine)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } } }
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "only once" }.count, 1)
    }

    func testLoginTheVerbsAndLogout() throws {
        let ann = try registerUser("ann", on: server)
        let config = NSTemporaryDirectory() + "config-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: config) }
        var output = ""
        var errors = ""
        var input = Data()
        func run(_ arguments: [String], stdin: String = "") -> Int32 {
            output = ""
            errors = ""
            input = Data(stdin.utf8)
            let context = CommandContext(
                environment: ["XDG_CONFIG_HOME": config, "HOME": config], now: Date.init,
                writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                readInput: { limit in Array(Array(input).prefix(limit + 1)) }, inputIsTerminal: false)
            return Verb(rawValue: arguments[0])!.run(Array(arguments.dropFirst()), context: context)
        }
        let homeserver = server.baseURL.absoluteString
        XCTAssertEqual(run(["login", "--homeserver", homeserver, "--user", ann.localpart, "--password-stdin"], stdin: "wrong\n"), 1)
        XCTAssertTrue(errors.contains("bad user name or password"), errors)
        XCTAssertEqual(run(["login", "--homeserver", homeserver, "--user", ann.localpart, "--password-stdin"], stdin: ann.account.password + "\n"), 0, errors)
        XCTAssertEqual(output, "logged in as \(ann.account.userID)\n")
        let accounts = config + "/comment-tui/accounts.json"
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: accounts)[.posixPermissions] as? Int, 0o600)
        let token = try XCTUnwrap(MatrixAccounts(path: accounts).accounts.first?.accessToken)

        let alias = "verbs-\(ann.localpart)"
        XCTAssertEqual(run(["new", "matrix:#\(alias):\(server.serverName)", "--title", "Verbs", "--body", "The **post**"]), 0, errors)
        let room = output.trimmingCharacters(in: .newlines)
        XCTAssertTrue(room.hasPrefix("!"), output)
        XCTAssertEqual(run(["post", "matrix:#\(alias):\(server.serverName)", "--body", "a comment with `code`"]), 0, errors)
        XCTAssertTrue(output.hasPrefix("$"), output)
        XCTAssertEqual(run(["render", "matrix:\(room)", "--width", "60", "--plain"]), 0, errors)
        XCTAssertTrue(output.contains("Verbs") && output.contains("The post") && output.contains("a comment with code"), output)
        XCTAssertEqual(run(["check", "https://matrix.to/#/\(room)"]), 0, errors)
        XCTAssertTrue(output.contains("ok, ") && output.contains("1 comment"), output)
        XCTAssertEqual(run(["export", "matrix:\(room)"]), 0, errors)
        let exported = NSTemporaryDirectory() + "export-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: exported) }
        try Data(output.utf8).write(to: URL(fileURLWithPath: exported))
        let file = try ThreadFile.read(path: exported)
        XCTAssertEqual(file.problems.count, 0)
        XCTAssertEqual(file.thread.title, "Verbs")
        XCTAssertEqual(file.thread.comments.map(\.body), ["a comment with `code`"])
        XCTAssertFalse(output.contains(token) || errors.contains(token), "the token never reaches output")

        // The exported file goes into another room, once however often it is run.
        XCTAssertEqual(run(["new", "matrix:#copy-\(ann.localpart):\(server.serverName)", "--title", "Copy"]), 0, errors)
        XCTAssertEqual(run(["import", exported, "matrix:#copy-\(ann.localpart):\(server.serverName)"]), 0, errors)
        XCTAssertEqual(output, "imported 1 comment into #copy-\(ann.localpart):\(server.serverName)\n")
        XCTAssertEqual(run(["import", exported, "matrix:#copy-\(ann.localpart):\(server.serverName)"]), 0, errors)
        XCTAssertTrue(output.contains("imported 0 comments") && output.contains("(1 was there already)"), output)

        // Errors name what failed.
        XCTAssertEqual(run(["render", "matrix:#nothing-here:\(server.serverName)"]), 1)
        XCTAssertTrue(errors.contains("unknown room #nothing-here:\(server.serverName)"), errors)
        let bo = try registerUser("bo", on: server)
        let privateRoom = try bo.other.createRoom(name: "Private")
        XCTAssertEqual(run(["check", "matrix:\(privateRoom)"]), 1)
        XCTAssertTrue(errors.contains("not joined to \(privateRoom)"), errors)
        XCTAssertEqual(run(["login", "--homeserver", "http://127.0.0.1:9", "--user", "x", "--password-stdin"], stdin: "pw\n"), 1)
        XCTAssertTrue(errors.contains("homeserver http://127.0.0.1:9 is unreachable"), errors)

        XCTAssertEqual(run(["logout"]), 0, errors)
        XCTAssertEqual(try MatrixAccounts(path: accounts).accounts.count, 0)
        let status = try MatrixTestClient(baseURL: server.baseURL, accessToken: token, userID: nil)
            .request(method: "GET", path: "/_matrix/client/v3/account/whoami").status
        XCTAssertEqual(status, 401, "the session ended on the server")
    }

    func testSendsRateLimitedByTheServerWaitAndGoOnceEach() throws {
        server.stop()
        server = SynapseServer(rateLimits: ["rc_message": "{per_second: 2, burst_count: 1}"])
        try server.start()
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Slow down", preset: .publicChat)
        let source = try open(room, as: ann)
        defer { source.stop() }
        let comments = (1...4).map { comment(by: ann, "burst \($0)") }
        let started = Date()
        for comment in comments { XCTAssertEqual(source.send(comment), .pending) }
        // The server answers 429 with retry_after_ms; each send waits and goes again, in order.
        let updates = try collectUpdates(from: source, timeout: 30) { updates in
            comments.allSatisfy { comment in updates.contains { if case .sendConfirmed(comment.id) = $0 { true } else { false } } }
        }
        XCTAssertFalse(updates.contains { if case .sendFailed = $0 { true } else { false } })
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 1, "at 2 a second after a burst of 1, four sends take over a second")
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0.hasPrefix("burst") }, comments.map(\.body))
    }

    func testACommentWrittenOfflineIsSentOnceAfterQuittingAndComingBack() throws {
        let (_, ann, room) = try twoUsersInARoom("Train", on: server)
        let environment = temporaryDataEnvironment()
        let first = try open(room, as: ann, environment: environment)
        server.stop()
        try collectUpdates(from: first) { $0.contains { if case .connection(.offline) = $0 { true } else { false } } }
        let mine = comment(by: ann, "typed on the train")
        XCTAssertEqual(first.send(mine), .pending)
        first.stop()  // the lid closes: the client quits with the comment unsent

        try server.start()
        let second = try open(room, as: ann, environment: environment)
        defer { second.stop() }
        XCTAssertEqual(second.unsentComments.map(\.body), ["typed on the train"])
        let app = CommentApp(source: second, me: second.reader, columns: 80, rows: 24)
        app.wallTime = Date()
        XCTAssertTrue(app.render().buffer.trimmedLines.contains { $0.contains("typed on the train") })
        try collectUpdates(from: second) { $0.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } } }
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "typed on the train" }.count, 1)
    }

    func testAKnownRoomOpensFromItsCacheWithTheServerDownAndCatchesUp() throws {
        let (bo, ann, room) = try twoUsersInARoom("Cached", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        try bo.other.sendText(roomID: room, body: "before the first open")
        let environment = temporaryDataEnvironment()
        let first = try open(room, as: ann, environment: environment)
        try bo.other.sendText(roomID: room, body: "while it was open")
        try collectUpdates(from: first) { $0.flatMap(\.appended).contains { $0.body == "while it was open" } }
        first.stop()

        server.stop()
        XCTAssertThrowsError(try open(room, as: ann, environment: environment, usesCache: false), "without the cache it needs the server")
        let offline = try open(room, as: ann, environment: environment)
        defer { offline.stop() }
        XCTAssertEqual((offline.openedComments as! ArrayCommentStore).comments.map(\.body), ["before the first open", "while it was open"])
        XCTAssertEqual(offline.thread.title, "Cached")
        let app = CommentApp(source: offline, me: offline.reader, columns: 80, rows: 24)
        app.receive(try collectUpdates(from: offline) { $0.contains { if case .connection(.offline) = $0 { true } else { false } } })
        app.wallTime = Date()
        let lines = app.render().buffer.trimmedLines
        XCTAssertTrue(lines.last?.contains("offline") == true && lines.contains { $0.contains("while it was open") }, "\(lines)")
        let mine = comment(by: ann, "queued while offline")
        XCTAssertEqual(offline.send(mine), .pending)

        try server.start()
        try bo.other.sendText(roomID: room, body: "missed while closed")
        let updates = try collectUpdates(from: offline, timeout: 40) { updates in
            updates.flatMap(\.appended).contains { $0.body == "missed while closed" }
                && updates.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } }
        }
        XCTAssertTrue(updates.contains { if case .connection(.live) = $0 { true } else { false } })
        XCTAssertFalse(updates.flatMap(\.appended).contains { $0.body == "while it was open" }, "caught up from next_batch, no repeats")
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "queued while offline" }.count, 1)
    }
}
