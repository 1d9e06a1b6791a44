import XCTest
import ThreadModel
import SynapseFixture
@testable import CommentTUI

/// The verbs and posts against the real Synapse: `new` in a room that exists starts a post,
/// `post`, `render` and `export` take the post's locator.
final class MatrixPostVerbTests: SharedSynapseTestCase {
    func testNewInARoomStartsAPostAndTheVerbsTakeItsLocator() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Post verbs", on: server)
        try bo.other.sendText(roomID: room, body: "the room's own message")
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
        XCTAssertEqual(run(["login", "--homeserver", server.baseURL.absoluteString, "--user", ann.localpart, "--password-stdin"],
                           stdin: ann.account.password + "\n"), 0, errors)

        XCTAssertEqual(run(["new", "matrix:\(room)", "--title", "Ferry plans", "--body", "Which one do we take?"]), 0, errors)
        let locator = output.trimmingCharacters(in: .newlines)
        let address = try XCTUnwrap(MatrixRoomAddress(locator: locator), locator)
        XCTAssertEqual(address.identifier, room)
        let root = try XCTUnwrap(address.postRoot)
        let rootEvent = try bo.client.event(room: room, id: root)
        XCTAssertEqual(rootEvent["content"]?["body"]?.string, "Ferry plans\n\nWhich one do we take?")
        XCTAssertNil(rootEvent["content"]?["m.relates_to"], "a root is in the room's main timeline")

        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "the early one",
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
        XCTAssertEqual(run(["post", locator, "--body", "the late one"]), 0, errors)
        let sent = try bo.client.event(room: room, id: output.trimmingCharacters(in: .newlines))
        XCTAssertEqual(sent["content"]?["m.relates_to"]?["rel_type"]?.string, "m.thread")
        XCTAssertEqual(sent["content"]?["m.relates_to"]?["event_id"]?.string, root)

        XCTAssertEqual(run(["render", locator, "--width", "60", "--plain"]), 0, errors)
        XCTAssertTrue(output.contains("Ferry plans") && output.contains("Which one do we take?"), output)
        XCTAssertTrue(output.contains("the early one") && output.contains("the late one"), output)
        XCTAssertFalse(output.contains("the room's own message"), output)

        let link = "https://matrix.to/#/\(room)/\(root)?via=\(server.serverName)"
        XCTAssertEqual(run(["export", link]), 0, errors)
        let exported = NSTemporaryDirectory() + "export-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: exported) }
        try Data(output.utf8).write(to: URL(fileURLWithPath: exported))
        let file = try ThreadFile.read(path: exported)
        XCTAssertEqual(file.thread.title, "Ferry plans")
        XCTAssertEqual(file.thread.comments.map(\.body), ["the early one", "the late one"])

        // The room's own feed still renders without the post's replies.
        XCTAssertEqual(run(["render", "matrix:\(room)", "--width", "60", "--plain"]), 0, errors)
        XCTAssertTrue(output.contains("Ferry plans") && !output.contains("the early one"), output)

        XCTAssertEqual(run(["render", "matrix:\(room)/not-an-event"]), 1)
        XCTAssertTrue(errors.contains("is not a post"), errors)
    }

    /// `new` at a taken public alias (someone else's room the reader is not in) starts no post
    /// there and joins nothing: it says why.
    func testNewAtARoomTheReaderIsNotInRefusesAndJoinsNothing() throws {
        let server = try server
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let ann = try registerUser("ann", on: server)
        let alias = "taken-\(ann.localpart)"
        let room = try bo.other.createRoom(name: "Bo's room", preset: .publicChat, alias: alias)
        let config = NSTemporaryDirectory() + "config-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: config) }
        var output = ""
        var errors = ""
        func run(_ arguments: [String], stdin: String = "") -> Int32 {
            (output, errors) = ("", "")
            let input = Data(stdin.utf8)
            let context = CommandContext(
                environment: ["XDG_CONFIG_HOME": config, "HOME": config], now: Date.init,
                writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                readInput: { limit in Array(Array(input).prefix(limit + 1)) }, inputIsTerminal: false)
            return Verb(rawValue: arguments[0])!.run(Array(arguments.dropFirst()), context: context)
        }
        XCTAssertEqual(run(["login", "--homeserver", server.baseURL.absoluteString, "--user", ann.localpart, "--password-stdin"],
                           stdin: ann.account.password + "\n"), 0, errors)
        for locator in ["matrix:#\(alias):\(server.serverName)", "matrix:\(room)"] {
            XCTAssertEqual(run(["new", locator, "--title", "Mine now"]), 1, errors)
            XCTAssertTrue(errors.contains("you are not in") && errors.contains("nothing was posted"), errors)
            XCTAssertTrue(output.isEmpty, output)
        }
        XCTAssertFalse(try ann.client.joinedRooms().contains(room), "nothing joined")
        XCTAssertFalse(try bo.other.messageBodies(roomID: room).contains { $0.contains("Mine now") }, "nothing posted")
    }
}
