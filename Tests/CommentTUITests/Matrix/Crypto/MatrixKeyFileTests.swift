import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// `comment-tui keys export` and `keys import` on the shared Synapse: Ann's first device exports
/// the room keys it got from Bo's nio device; her second device, logged in after Bo wrote (so
/// no key ever reached it), imports the file and reads what it never received. A wrong
/// passphrase, a cut file and a changed MAC are refused in words, with nothing imported.
final class MatrixKeyFileTests: SharedSynapseTestCase {
    /// A verb's outcome.
    private struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `keys`-style verbs as Ann's device of `account` in `environment`, `input` on standard input.
    private func run(_ verb: Verb, _ arguments: [String], as account: MatrixAccounts.Account, in environment: [String: String],
                     input: String = "") throws -> Run {
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        if (try? accounts.choose(account.userID)) != account {
            accounts.add(account)
            try accounts.save()
        }
        nonisolated(unsafe) var output = ""
        nonisolated(unsafe) var errors = ""
        let context = CommandContext(environment: environment, now: Date.init,
                                     writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                                     readInput: { limit in Array(Array(input.utf8).prefix(limit + 1)) }, inputIsTerminal: false)
        let status = verb.run(arguments, context: context)
        return Run(status: status, output: output, errors: errors)
    }

    func testExportThenImportOnAnotherDeviceReadsMessagesItNeverReceived() throws {
        let room = try encryptedRoom()
        let server = try self.server
        let first = MatrixAccounts.Account(userID: room.ann.account.userID, homeserver: server.baseURL.absoluteString,
                                           accessToken: room.ann.account.accessToken, deviceID: room.ann.account.deviceID)
        do {
            let keys = try keys(of: room)
            try nioSends(["sent before the second device", "and a second secret"], in: room)
            XCTAssertEqual(keys.take(JSONValue(foundation: try room.ann.other.sync())), [], "the room key came to the first device")
        }
        let file = room.folder.appendingPathComponent("ann-keys.txt").path
        let exported = try run(.keys, ["export", file], as: first, in: room.environment, input: "a passphrase with spaces \n")
        XCTAssertEqual(exported.status, 0, exported.errors)
        XCTAssertTrue(exported.output.hasPrefix("wrote 1 room key of \(first.userID) to \(file)"), exported.output)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int, 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("-----BEGIN MEGOLM SESSION DATA-----\n"), text)
        let again = try run(.keys, ["export", file], as: first, in: room.environment, input: "other\n")
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.errors.contains("exists already; no keys were exported (give --force to replace it)"), again.errors)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text, "the file was left as it was")

        // Ann's second device, made after Bo wrote.
        let login = try room.ann.other.call("POST", "/_matrix/client/v3/login", body: [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": room.ann.account.userID],
            "password": room.ann.account.password,
        ])
        let second = MatrixAccounts.Account(userID: first.userID, homeserver: first.homeserver,
                                            accessToken: try XCTUnwrap(login["access_token"] as? String),
                                            deviceID: try XCTUnwrap(login["device_id"] as? String))
        let secondEnvironment = room.environment.mapValues { $0 + "-second" }
        let before = try run(.export, ["matrix:\(room.room)"], as: second, in: secondEnvironment)
        XCTAssertEqual(before.status, 0, before.errors)
        XCTAssertFalse(before.output.contains("sent before the second device"), before.output)
        XCTAssertTrue(before.output.contains("unable to decrypt"), before.output)

        // Refused in words, nothing imported.
        let dataLines = text.split(separator: "\n").dropFirst().dropLast()
        var data = Array(dataLines.joined())
        data[data.count - 10] = data[data.count - 10] == "A" ? "B" : "A"
        let tampered = "-----BEGIN MEGOLM SESSION DATA-----\n\(String(data))\n-----END MEGOLM SESSION DATA-----\n"
        let wrong = "the passphrase is wrong, or the key file was changed since it was written"
        for (content, passphrase, words) in [(text, "a passphrase with spaces", wrong),
                                             (String(text.prefix(text.count / 2)), "a passphrase with spaces \n",
                                              "the key file is cut short: it ends before its data does"),
                                             (tampered, "a passphrase with spaces \n", wrong)] {
            let bad = room.folder.appendingPathComponent("bad-keys.txt").path
            try content.write(toFile: bad, atomically: true, encoding: .utf8)
            let refused = try run(.keys, ["import", bad], as: second, in: secondEnvironment, input: passphrase)
            XCTAssertEqual(refused.status, 1, refused.output)
            XCTAssertEqual(refused.errors, "comment-tui keys: \(bad): \(words); no keys were imported\n")
        }

        let imported = try run(.keys, ["import", file], as: second, in: secondEnvironment, input: "a passphrase with spaces \n")
        XCTAssertEqual(imported.status, 0, imported.errors)
        XCTAssertEqual(imported.output, "imported 1 new room key for \(first.userID) from \(file)\n", "none came before")
        let after = try run(.export, ["matrix:\(room.room)"], as: second, in: secondEnvironment)
        XCTAssertTrue(after.output.contains("sent before the second device") && after.output.contains("and a second secret"), after.output)
        XCTAssertFalse(after.output.contains("unable to decrypt"), after.output)
    }
}
