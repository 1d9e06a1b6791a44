import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// The backup version a run uses is re-read when the server says it is gone or replaced, and a
/// backup whose creation answer was lost is recognised as ours (against Synapse).
final class MatrixKeyBackupVersionTests: SharedSynapseTestCase {
    func testAnUploadToAVersionDeletedMeanwhileReadsTheCurrentVersionNextTime() throws {
        let account = try backedUpAccount()
        let client = account.ann.client
        // Another device replaces the backup (same key, as a reset of the version would) while
        // this run remembers the old version.
        let original = try XCTUnwrap(client.currentBackupVersion())
        try client.request("DELETE", ["room_keys", "version", account.version])
        let replacement = try client.createBackupVersion(algorithm: MegolmBackupKey.algorithm, authData: XCTUnwrap(original["auth_data"]))
        XCTAssertNotEqual(replacement, account.version)

        _ = try account.firstDeviceSends(1)
        let first = account.first.backUpOwnSessions()
        XCTAssertEqual(first.count, 1, "the upload to the deleted version failed and said so: \(first)")
        XCTAssertEqual(account.first.backUpOwnSessions(), [], "the next upload went to the current version")
        XCTAssertEqual(try client.currentBackupVersion()?["count"]?.int, 1)
    }

    func testABackupWhoseCreationAnswerWasLostIsFoundAsOurs() throws {
        let account = try backedUpAccount()
        let key = try XCTUnwrap(account.first.device.store.value("key", in: MatrixRoomKeys.backupKey))
        XCTAssertEqual(account.first.currentBackupVersion(ifMadeWith: key), account.version, "the current backup is the one made with our key")
        var random = SystemRandom()
        XCTAssertNil(account.first.currentBackupVersion(ifMadeWith: try MegolmBackupKey.generate(random: &random)),
                     "another key's backup is not taken for ours")
    }
}
