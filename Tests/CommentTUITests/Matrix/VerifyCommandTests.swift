import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// `comment-tui verify` against a real Synapse, the account's recovery set up by mautrix: the
/// key read from standard input, what the verb says, and the key nowhere in its output or files.
final class VerifyCommandTests: SharedSynapseTestCase {
    /// A fresh HOME holding `user`'s session, as `comment-tui login` keeps it.
    private func home(signedInAs user: MatrixTestUser, on server: SynapseServer) throws -> URL {
        let home = try temporaryDirectory(self)
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: ["HOME": home.path])))
        accounts.add(.init(userID: user.account.userID, homeserver: server.baseURL.absoluteString,
                           accessToken: user.account.accessToken, deviceID: user.account.deviceID))
        try accounts.save()
        return home
    }

    private func verify(_ flag: String, typing input: String, home: URL) -> VerbRun {
        VerbRun(.verify, [flag], input: input, environment: ["HOME": home.path])
    }

    /// Every file under `folder` whose bytes hold `text`.
    private func files(under folder: URL, holding text: String) throws -> [String] {
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return walker.compactMap { $0 as? URL }.filter { url in
            guard let data = FileManager.default.contents(atPath: url.path) else { return false }
            return data.range(of: Data(text.utf8)) != nil
        }.map(\.path)
    }

    private func assertNowhere(_ secret: String, in run: VerbRun, home: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        for form in [secret, secret.replacingOccurrences(of: " ", with: "")] {
            XCTAssertFalse(run.text.contains(form) || run.error.contains(form), "the secret is not printed", file: file, line: line)
            XCTAssertEqual(try files(under: home, holding: form), [], "the secret is in no file", file: file, line: line)
        }
    }

    func testTheRecoveryKeyOnStandardInputVerifiesTheDeviceAndIsKeptNowhere() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let recovery = try MautrixPeer(homeserver: server.baseURL, userID: ann.account.userID, password: "pw-\(ann.localpart)").setUpRecovery()
        let home = try home(signedInAs: ann, on: server)

        let run = verify("--recovery-key", typing: recovery.recoveryKey + "\n", home: home)
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(run.text, """
            this device (\(ann.account.deviceID)) of \(ann.account.userID) is now verified with your recovery key; Element users' \
            clients will share room keys with it\n
            """)
        let answer = try bo.client.queryKeys(users: [ann.account.userID])
        let identity = try CrossSigningIdentity.fromKeysQuery(answer, userID: ann.account.userID)
        XCTAssertEqual(CrossSigningTrust().deviceStatus(deviceKeys: try XCTUnwrap(answer["device_keys"]?[ann.account.userID]?[ann.account.deviceID]),
                                                        identity: identity), .crossSigned)
        try assertNowhere(recovery.recoveryKey, in: run, home: home)

        let again = verify("--recovery-key", typing: recovery.recoveryKey, home: home)
        XCTAssertEqual(again.status, 0, again.error)
        XCTAssertTrue(again.text.contains("was already verified"), again.text)
    }

    func testAWrongKeyAndAnAccountWithoutRecoveryAreRefusedInWords() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let home = try home(signedInAs: ann, on: server)
        let someKey = RecoveryKey(key: Array(repeating: 9, count: 32)).displayed
        let none = verify("--recovery-key", typing: someKey, home: home)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.error.hasPrefix("comment-tui verify: this account has no secret storage: set up recovery in Element first"), none.error)
        XCTAssertTrue(none.error.hasSuffix("; this device is not verified\n"), none.error)

        _ = try MautrixPeer(homeserver: server.baseURL, userID: ann.account.userID, password: "pw-\(ann.localpart)").setUpRecovery()
        let wrong = verify("--recovery-key", typing: someKey, home: home)
        XCTAssertEqual(wrong.status, 1)
        XCTAssertEqual(wrong.error, "comment-tui verify: this recovery key does not open this account's secret storage; this device is not verified\n")
        try assertNowhere(someKey, in: wrong, home: home)
        let passphrase = verify("--passphrase", typing: "a passphrase\n", home: home)
        XCTAssertEqual(passphrase.error, """
            comment-tui verify: this account's secret storage key has no passphrase; use the recovery key; this device is not verified\n
            """)
        XCTAssertEqual(verify("--recovery-key", typing: "\n", home: home).error, "comment-tui verify: no recovery key given; this device is not verified\n")
    }

    func testTheVerbNeedsOneWayInAndASession() throws {
        let home = try temporaryDirectory(self)
        XCTAssertEqual(VerbRun(.verify, [], input: "", environment: ["HOME": home.path]).status, 2)
        XCTAssertEqual(VerbRun(.verify, ["--recovery-key", "--passphrase"], input: "", environment: ["HOME": home.path]).status, 2)
        let nobody = verify("--recovery-key", typing: "key", home: home)
        XCTAssertEqual(nobody.status, 1)
        XCTAssertTrue(nobody.error.contains("not logged in to a homeserver"), nobody.error)
    }
}
