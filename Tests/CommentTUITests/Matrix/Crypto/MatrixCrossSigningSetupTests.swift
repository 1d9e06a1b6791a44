import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// `comment-tui keys setup` on a brand-new account of the shared Synapse: the recovery key it
/// shows once verifies a device of mautrix (the strict, Element-like peer) and a second device of
/// ours (`verify --recovery-key`); mautrix trusts our device; a second setup is refused.
final class MatrixCrossSigningSetupTests: SharedSynapseTestCase {
    private struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    private func run(_ verb: Verb, _ arguments: [String], as account: MatrixAccounts.Account, in environment: [String: String],
                     input: String = "") throws -> Run {
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(account)
        try accounts.save()
        nonisolated(unsafe) var output = ""
        nonisolated(unsafe) var errors = ""
        let context = CommandContext(environment: environment, now: Date.init,
                                     writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                                     readInput: { limit in Array(Array(input.utf8).prefix(limit + 1)) }, inputIsTerminal: false)
        return Run(status: verb.run(arguments, context: context), output: output, errors: errors)
    }

    private func environment(_ name: String) -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-setup-\(name)-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return ["XDG_DATA_HOME": folder.appendingPathComponent("data").path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
    }

    func testSetupOnAFreshAccountGivesARecoveryKeyMautrixAndOurSecondDeviceVerifyWith() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let first = MatrixAccounts.Account(userID: ann.account.userID, homeserver: server.baseURL.absoluteString,
                                           accessToken: ann.account.accessToken, deviceID: ann.account.deviceID)
        let home = environment("first")
        let setUp = try run(.keys, ["setup"], as: first, in: home)
        XCTAssertEqual(setUp.status, 0, setUp.errors)
        let shown = setUp.output.split(separator: "\n").filter { $0.hasPrefix("    ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(shown.count, 1, setUp.output)
        let recoveryKey = try XCTUnwrap(shown.first)
        XCTAssertNoThrow(try RecoveryKey(typed: recoveryKey), "a well-formed recovery key")
        XCTAssertTrue(setUp.output.hasPrefix("cross-signing is set up for \(ann.account.userID), and this device (\(ann.account.deviceID)) is verified.\nYour recovery key"),
                      "the key first, before anything else can fail: \(setUp.output)")
        XCTAssertTrue(setUp.output.hasSuffix("now keeps the keys of your encrypted messages for your other devices.\n"), setUp.output)
        XCTAssertEqual(setUp.errors, "", "no password asked: Synapse takes a first upload without one")

        // What the store keeps holds no recovery key.
        let location = try XCTUnwrap(CryptoStoreLocation(userID: first.userID, deviceID: first.deviceID, environment: home))
        do {
            let device = try MatrixDeviceCrypto(userID: first.userID, deviceID: first.deviceID, location: location)
            XCTAssertTrue(device.isCrossSigned)
            let kept = try XCTUnwrap(device.store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
            XCTAssertEqual(try device.store.value("trust", in: MatrixDeviceCrypto.crossSigningTrust)?.pinnedMasterKeys[first.userID],
                           UnpaddedBase64.encode(kept.master.publicKey))
        }

        // A third-party client accepts it: mautrix verifies its own device with the key, and
        // then trusts ours as cross-signed.
        let mautrix = MautrixPeer(homeserver: server.baseURL, userID: ann.account.userID, password: ann.account.password)
        let verified = try mautrix.run([.verifyWithRecoveryKey(recoveryKey), .deviceTrust(user: first.userID, device: first.deviceID)])
        XCTAssertNotNil(verified.first?["device_id"] as? String, "\(verified)")
        XCTAssertEqual(verified.last?["trust"] as? String, "cross-signed-tofu", "\(verified)")

        // Our own second device verifies with the same key.
        let login = try ann.other.call("POST", "/_matrix/client/v3/login", body: [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": ann.account.userID], "password": ann.account.password,
        ])
        let second = MatrixAccounts.Account(userID: first.userID, homeserver: first.homeserver,
                                            accessToken: try XCTUnwrap(login["access_token"] as? String),
                                            deviceID: try XCTUnwrap(login["device_id"] as? String))
        let secondHome = environment("second")
        let verify = try run(.verify, ["--recovery-key"], as: second, in: secondHome, input: recoveryKey + "\n")
        XCTAssertEqual(verify.status, 0, verify.errors)
        XCTAssertTrue(verify.output.contains("is now verified with your recovery key"), verify.output)
        // The key backup setup made is one the second device trusts and opens with that key.
        do {
            let location = try XCTUnwrap(CryptoStoreLocation(userID: second.userID, deviceID: second.deviceID, environment: secondHome))
            let client = MatrixClient(homeserver: server.baseURL, accessToken: second.accessToken)
            let keys = try MatrixRoomKeys(client: client, userID: second.userID, deviceID: second.deviceID, location: location)
            XCTAssertNotNil(try keys.device.store.value("key", in: MatrixRoomKeys.backupKey), "the backup key came with the recovery key")
            XCTAssertNotNil(try keys.trustedBackup(), "the backup is ours and signed by our identity")
        }

        // Set up twice (from either device): refused, pointing at the recovery key.
        for (account, environment) in [(first, home), (second, secondHome)] {
            let again = try run(.keys, ["setup"], as: account, in: environment)
            XCTAssertEqual(again.status, 1, again.output)
            XCTAssertEqual(again.errors, "comment-tui keys: \(CrossSigningSetup.Refusal.alreadyCrossSigning); nothing was set up\n")
            XCTAssertEqual(again.output, "")
        }
    }

    /// The upload's user-interactive auth against Synapse: no password for the first upload
    /// (Synapse takes it without), and for keys that replace published ones the password asked
    /// once and sent with the session the server named; a wrong one said in words.
    func testTheUploadAsksThePasswordOnlyWhenTheServerWantsIt() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        func upload(_ keys: CrossSigningKeys) throws -> JSONValue {
            let identity = try keys.publicIdentity()
            return ["master_key": identity.master.json, "self_signing_key": identity.selfSigning.json,
                    "user_signing_key": try XCTUnwrap(identity.userSigning).json]
        }
        var random = SystemRandom()
        let first = try CrossSigningKeys.generate(userID: ann.account.userID, random: &random)
        try ann.client.uploadCrossSigningKeys(upload(first), userID: ann.account.userID) {
            XCTFail("a password asked for the first upload")
            return ""
        }
        let replacing = try CrossSigningKeys.generate(userID: ann.account.userID, random: &random)
        XCTAssertThrowsError(try ann.client.uploadCrossSigningKeys(upload(replacing), userID: ann.account.userID) { "not the password" }) {
            XCTAssertTrue("\($0)".hasSuffix("did not accept the password"), "\($0)")
        }
        var asked = 0
        try ann.client.uploadCrossSigningKeys(upload(replacing), userID: ann.account.userID) {
            asked += 1
            return ann.account.password
        }
        XCTAssertEqual(asked, 1)
        let published = try CrossSigningIdentity.fromKeysQuery(ann.client.queryKeys(users: [ann.account.userID]), userID: ann.account.userID)
        XCTAssertEqual(published?.master.publicKey, replacing.master.publicKey)
    }

    /// A setup that stopped after publishing its keys (the connection lost before the secrets
    /// or the signature went up) is finished by the next run, not refused as someone else's:
    /// the keys it kept before anything left are the published ones.
    func testASetupThatStoppedAfterPublishingIsFinishedByTheNextRun() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let first = MatrixAccounts.Account(userID: ann.account.userID, homeserver: server.baseURL.absoluteString,
                                           accessToken: ann.account.accessToken, deviceID: ann.account.deviceID)
        let home = environment("stopped")
        var random = SystemRandom()
        let keys = try CrossSigningKeys.generate(userID: first.userID, random: &random)
        do {
            // As far as the first run got: the keys kept, then published.
            let location = try XCTUnwrap(CryptoStoreLocation(userID: first.userID, deviceID: first.deviceID, environment: home))
            let device = try MatrixDeviceCrypto(userID: first.userID, deviceID: first.deviceID, location: location)
            try device.store.put(keys, id: "pending-setup", in: MatrixDeviceCrypto.crossSigningKeys)
            let identity = try keys.publicIdentity()
            try ann.client.uploadCrossSigningKeys(["master_key": identity.master.json, "self_signing_key": identity.selfSigning.json,
                                                   "user_signing_key": try XCTUnwrap(identity.userSigning).json],
                                                  userID: first.userID) { "" }
        }
        let setUp = try run(.keys, ["setup"], as: first, in: home)
        XCTAssertEqual(setUp.status, 0, setUp.errors)
        let recoveryKey = try XCTUnwrap(setUp.output.split(separator: "\n").first { $0.hasPrefix("    ") }).trimmingCharacters(in: .whitespaces)

        let login = try ann.other.call("POST", "/_matrix/client/v3/login", body: [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": ann.account.userID], "password": ann.account.password,
        ])
        let second = MatrixAccounts.Account(userID: first.userID, homeserver: first.homeserver,
                                            accessToken: try XCTUnwrap(login["access_token"] as? String),
                                            deviceID: try XCTUnwrap(login["device_id"] as? String))
        let secondHome = environment("after")
        let verify = try run(.verify, ["--recovery-key"], as: second, in: secondHome, input: recoveryKey + "\n")
        XCTAssertEqual(verify.status, 0, verify.errors)
        let location = try XCTUnwrap(CryptoStoreLocation(userID: second.userID, deviceID: second.deviceID, environment: secondHome))
        let opened = try XCTUnwrap(MatrixDeviceCrypto(userID: second.userID, deviceID: second.deviceID, location: location)
            .store.value("own", in: MatrixDeviceCrypto.crossSigningKeys))
        XCTAssertEqual(opened.master.publicKey, keys.master.publicKey, "the keys published by the first run")
        XCTAssertEqual(try run(.keys, ["setup"], as: first, in: home).status, 1, "once finished, set up")
    }
}
