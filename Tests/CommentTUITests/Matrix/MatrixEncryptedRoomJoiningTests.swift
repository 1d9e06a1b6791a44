import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// An encrypted room the account is not in yet (invited, or public) is not joined unasked, since
/// comment-tui cannot read or send there; `--join-encrypted` joins it, read-only. One Synapse
/// for the tests, as in `MatrixEncryptionTests`.
final class MatrixEncryptedRoomJoiningTests: SharedSynapseTestCase {
    private let megolm: [String: Any] = ["algorithm": "m.megolm.v1.aes-sha2"]

    func testAnInvitedEncryptedRoomIsNotJoinedWithoutAsking() throws {
        let server = try server
        let bo = try registerUser("bo", on: server)
        let ann = try registerUser("ann", on: server)
        let room = try bo.other.createRoom(name: "Invited", preset: .privateChat, invite: [ann.account.userID], initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": megolm]])
        func annIsIn() throws -> Bool {
            ((try ann.other.call("GET", "/_matrix/client/v3/joined_rooms")["joined_rooms"] as? [String]) ?? []).contains(room)
        }

        // From the command line, as `comment-tui matrix:!room [--join-encrypted]` opens it.
        var environment = temporaryDataEnvironment()
        environment["XDG_CONFIG_HOME"] = try XCTUnwrap(environment["XDG_CACHE_HOME"]) + "/../config"
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(.init(userID: ann.account.userID, homeserver: server.baseURL.absoluteString, accessToken: ann.account.accessToken,
                           deviceID: "ANNDEVICE"))
        try accounts.save()
        let context = CommandContext(environment: environment, now: Date.init, writeOutput: { _ in }, writeError: { _ in },
                                     readInput: { _ in [] }, inputIsTerminal: true)
        func openFromCommandLine(_ arguments: [String]) throws -> OpenCommand.Target {
            let request = try XCTUnwrap(OpenCommand.parse(arguments, context: context, version: "0"))
            return try OpenCommand.resolve(file: request.file, handle: request.handle, context: context, usesCache: request.usesCache,
                                           joinsEncrypted: request.joinsEncrypted)
        }

        XCTAssertThrowsError(try openFromCommandLine(["matrix:\(room)"])) { error in
            XCTAssertTrue("\(error)".contains("end-to-end encrypted") && "\(error)".contains("--join-encrypted"), "\(error)")
        }
        XCTAssertFalse(try annIsIn(), "refused before joining")
        // Asked to: joined, encrypted, and taking comments (the account's keys encrypt them).
        let target = try openFromCommandLine(["matrix:\(room)", "--join-encrypted"])
        defer { target.source.close() }
        XCTAssertTrue(try annIsIn())
        XCTAssertTrue(target.source.isEndToEndEncrypted)
        XCTAssertNil(target.source.sendingHeld)
        // An invite to a room without encryption is taken as before.
        let plain = try bo.other.createRoom(name: "Plain", preset: .privateChat, invite: [ann.account.userID])
        XCTAssertNil(try open(plain, as: ann, follows: false).sendingHeld)
    }

    func testAPublicEncryptedRoomIsNotJoinedWithoutAsking() throws {
        let server = try server
        let bo = try registerUser("bo", on: server)
        let ann = try registerUser("ann", on: server)
        let room = try bo.other.createRoom(name: "Public secret", preset: .publicChat, initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": megolm]])
        // The server's room summary follows its room statistics, kept a moment after the room's state.
        let deadline = Date() + 15
        while (try bo.other.call("GET", "/_matrix/client/v1/room_summary/\(room)"))["encryption"] as? String == nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        func annIsIn() throws -> Bool {
            ((try ann.other.call("GET", "/_matrix/client/v3/joined_rooms")["joined_rooms"] as? [String]) ?? []).contains(room)
        }
        XCTAssertThrowsError(try open(room, as: ann, follows: false)) { error in
            XCTAssertTrue("\(error)".contains("end-to-end encrypted") && "\(error)".contains("--join-encrypted"), "\(error)")
        }
        XCTAssertFalse(try annIsIn(), "refused before joining")
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let source = try MatrixThreadSource(client: MatrixClient(homeserver: server.baseURL, accessToken: ann.account.accessToken),
                                            address: address, me: ann.account.userID, environment: temporaryDataEnvironment(),
                                            follows: false, joinsEncrypted: true)
        XCTAssertTrue(try annIsIn())
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice)
    }
}
