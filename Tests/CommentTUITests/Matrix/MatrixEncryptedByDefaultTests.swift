import Foundation
import XCTest
import SynapseFixture
import ThreadModel
import MatrixCrypto
@testable import CommentTUI

/// A homeserver that switches end-to-end encryption on in every new room (as some do for
/// private rooms): `new` posts its first message there encrypted, never in plaintext. A server of its
/// own, set up so.
final class MatrixEncryptedByDefaultTests: XCTestCase {
    private var server: SynapseServer!

    override func setUpWithError() throws {
        server = SynapseServer(settings: ["encryption_enabled_by_default_for_room_type: all"])
        try server.start()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    /// Ann's account saved in a configuration folder of its own, and a context for the verbs.
    private func annsContext() throws -> (MatrixTestUser, CommandContext, output: () -> String, errors: () -> String, environment: [String: String]) {
        let ann = try registerUser("ann", on: server)
        let config = NSTemporaryDirectory() + "config-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: config) }
        let environment = ["XDG_CONFIG_HOME": config, "HOME": config, "XDG_DATA_HOME": config + "/data"]
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(.init(userID: ann.account.userID, homeserver: server.baseURL.absoluteString, accessToken: ann.account.accessToken,
                           deviceID: ann.account.deviceID))
        try accounts.save()
        nonisolated(unsafe) var output = ""
        nonisolated(unsafe) var errors = ""
        let context = CommandContext(environment: environment, now: Date.init,
                                     writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                                     readInput: { _ in [] }, inputIsTerminal: false)
        return (ann, context, { output }, { errors }, environment)
    }

    func testNewPostsEncryptedIntoARoomTheServerMadeEncrypted() throws {
        let (ann, context, output, errors, _) = try annsContext()
        let status = Verb.new.run(["matrix:", "--title", "Meant to be open", "--body", "the post, never in plaintext"], context: context)
        XCTAssertEqual(status, 0, "\(output()) \(errors())")
        let room = output().trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(room.hasPrefix("!"), output())
        XCTAssertNotNil(try? ann.other.call("GET", "/_matrix/client/v3/rooms/\(room)/state/m.room.encryption/"))
        let posted = try ann.other.messages(roomID: room).filter { $0["type"] as? String == "m.room.encrypted" }
        XCTAssertEqual(posted.count, 1, "the post went encrypted")
        XCTAssertEqual(try ann.other.messageBodies(roomID: room), [], "no plaintext")
    }

    func testWithoutTheKeysNewPostsNothingAndKeepsTheRoom() throws {
        let (ann, context, output, errors, environment) = try annsContext()
        // Another comment-tui of the account holds its keys.
        let location = try XCTUnwrap(CryptoStoreLocation(userID: ann.account.userID, deviceID: ann.account.deviceID, environment: environment))
        let held = try MatrixRoomKeys(client: ann.client, userID: ann.account.userID, deviceID: ann.account.deviceID, location: location)
        defer { _ = held }

        let status = Verb.new.run(["matrix:", "--title", "Meant to be open", "--body", "the post, never in plaintext"], context: context)
        XCTAssertEqual(status, 1, "\(output()) \(errors())")
        XCTAssertTrue(errors().contains("end-to-end encrypted") && errors().contains("nothing was posted"), errors())
        XCTAssertTrue(errors().contains("another comment-tui has it open"), "says why it has no keys: \(errors())")
        // The room is kept, named on the output, and holds no message.
        let room = output().trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(room.hasPrefix("!"), output())
        XCTAssertTrue(errors().contains(room), errors())
        XCTAssertEqual(try ann.other.messages(roomID: room).filter { ["m.room.message", "m.room.encrypted"].contains($0["type"] as? String) }.count, 0)
        withExtendedLifetime(held) {}
    }
}
