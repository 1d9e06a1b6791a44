import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// The scripting verbs on encrypted rooms, with the account's keys in its store: `post` sends
/// encrypted and nio reads it, `export` and `render` decrypt nio's messages and ours, and `new
/// --encrypted` makes an encrypted room whose post is encrypted.
final class MatrixEncryptedVerbTests: SharedSynapseTestCase {
    /// A context for Ann's verbs, her account saved in the room's configuration folder.
    private func context(of room: EncryptedRoom) throws -> (CommandContext, output: () -> String, errors: () -> String) {
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: room.environment)))
        accounts.add(.init(userID: room.ann.account.userID, homeserver: try server.baseURL.absoluteString,
                           accessToken: room.ann.account.accessToken, deviceID: room.ann.account.deviceID))
        try accounts.save()
        nonisolated(unsafe) var output = ""
        nonisolated(unsafe) var errors = ""
        let context = CommandContext(environment: room.environment, now: Date.init,
                                     writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                                     readInput: { _ in [] }, inputIsTerminal: false)
        return (context, { output }, { errors })
    }

    /// Runs a verb; its output, failing the test on a non-zero status.
    private func run(_ verb: Verb, _ arguments: [String], in room: EncryptedRoom) throws -> String {
        let (context, output, errors) = try context(of: room)
        let status = verb.run(arguments, context: context)
        XCTAssertEqual(status, 0, "\(verb) \(arguments): \(errors())")
        return output()
    }

    func testPostGoesEncryptedAndExportAndRenderDecryptBothSides() throws {
        let room = try encryptedRoom()
        // Ann's device keys go up with her first verb, before nio sends.
        _ = try run(.export, ["matrix:\(room.room)"], in: room)
        try nioSends(["from nio in secret"], in: room)

        let posted = try run(.post, ["matrix:\(room.room)", "--body", "from ann in secret"], in: room)
        XCTAssertTrue(posted.hasPrefix("$"), posted)
        let raw = try room.bo.other.messages(roomID: room.room).first { $0["event_id"] as? String == posted.trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(raw?["type"] as? String, "m.room.encrypted")
        let read = try XCTUnwrap(room.nio.run([.messages(room: room.room, limit: 10)]).first?["messages"] as? [[String: Any]])
        XCTAssertEqual(read.compactMap { $0["decrypted"] as? Bool == true ? $0["body"] as? String : nil }, ["from nio in secret", "from ann in secret"])

        let exported = try run(.export, ["matrix:\(room.room)"], in: room)
        XCTAssertTrue(exported.contains("from nio in secret") && exported.contains("from ann in secret"), exported)
        XCTAssertFalse(exported.contains("unable to decrypt"), exported)
        let rendered = try run(.render, ["matrix:\(room.room)", "--plain", "--width", "80"], in: room)
        XCTAssertTrue(rendered.contains("from nio in secret") && rendered.contains("from ann in secret"), rendered)
    }

    func testNewEncryptedMakesAnEncryptedRoomWhosePostIsEncrypted() throws {
        let room = try encryptedRoom()
        let made = try run(.new, ["matrix:", "--title", "Private plans", "--body", "only for us", "--encrypted"], in: room)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(made.hasPrefix("!"), made)
        XCTAssertNotNil(try? room.ann.other.call("GET", "/_matrix/client/v3/rooms/\(made)/state/m.room.encryption/"))
        let events = try room.ann.other.messages(roomID: made).filter { ["m.room.message", "m.room.encrypted"].contains($0["type"] as? String) }
        XCTAssertEqual(events.map { $0["type"] as? String }, ["m.room.encrypted"], "the post, encrypted")
        let exported = try run(.export, ["matrix:\(made)"], in: room)
        XCTAssertTrue(exported.contains("only for us"), "we read our own post back: \(exported)")

        let (context, _, errors) = try context(of: room)
        XCTAssertEqual(Verb.new.run([room.folder.appendingPathComponent("t.jsonl").path, "--title", "T", "--as", "ann", "--encrypted"],
                                    context: context), 2)
        XCTAssertTrue(errors().contains("--encrypted is for a new Matrix room"), errors())
    }
}
