import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest

/// Our key export files against matrix-nio's (`nio/crypto/key_export.py`, Element's format), the
/// oracle: nio decrypts and imports what we seal, and we open what nio writes. No homeserver.
/// Passphrases are ASCII here: nio hands PyCryptodome a `str`, which it encodes as Latin-1, where
/// Element (and we) take UTF-8.
final class KeyExportOracleTests: XCTestCase {
    /// Room keys of `count` new Megolm sessions (one sent a message before its export), and their senders.
    private func roomKeys(_ count: Int) throws -> (keys: [ExportedRoomKey], senders: [MegolmOutboundSession]) {
        var random = SystemRandom()
        var senders: [MegolmOutboundSession] = []
        var keys: [ExportedRoomKey] = []
        for index in 0 ..< count {
            var sender = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
            if index == 0 { _ = try sender.encrypt(Array("one before".utf8)) }
            let session = MegolmInboundSession(sessionKey: try sender.sessionKey())
            keys.append(ExportedRoomKey(roomID: "!oracle\(index):example.org", senderKey: UnpaddedBase64.encode(try random.bytes(32)),
                                        sessionKey: try session.export(at: session.firstKnownIndex),
                                        claimedSigningKey: UnpaddedBase64.encode(try random.bytes(32))))
            senders.append(sender)
        }
        return (keys, senders)
    }

    func testNioDecryptsAndImportsOurFile() throws {
        let (keys, _) = try roomKeys(3)
        var random = SystemRandom()
        let text = try MegolmKeyExport.seal(keys: keys, passphrase: "pass phrase 7", rounds: 2000, random: &random)
        XCTAssertEqual(try NioKeyExport.decrypt(text, passphrase: "pass phrase 7"),
                       Data(try CanonicalJSON.encode(.array(keys.map(\.json)))))
        let imported = try NioKeyExport.importedSessions(text, passphrase: "pass phrase 7")
        XCTAssertEqual(imported.map { $0["session_id"] as? String }, keys.map(\.sessionID))
        XCTAssertEqual(imported.map { $0["room_id"] as? String }, keys.map(\.roomID))
        XCTAssertEqual(imported.map { $0["sender_key"] as? String }, keys.map(\.senderKey))
        XCTAssertEqual(imported.map { $0["ed25519"] as? String }, keys.map(\.claimedSigningKey))
        XCTAssertEqual(imported.map { $0["first_known_index"] as? Int }, [1, 0, 0])
        XCTAssertThrowsError(try NioKeyExport.decrypt(text, passphrase: "pass phrase"), "nio checks our MAC too")
    }

    func testWeOpenNiosFileAndItsKeysDecrypt() throws {
        let made = try roomKeys(2)
        let keys = made.keys
        var senders = made.senders
        let plaintext = try CanonicalJSON.encode(.array(keys.map(\.json)))
        let text = try NioKeyExport.encrypt(Data(plaintext), passphrase: "from nio", rounds: 3000)
        let opened = try MegolmKeyExport.openKeys(text, passphrase: "from nio")
        XCTAssertEqual(opened.keys, keys)
        for index in senders.indices {
            let message = try senders[index].encrypt(Array("after export \(index)".utf8))
            var session = MegolmInboundSession(exportedKey: opened.keys[index].sessionKey)
            XCTAssertEqual(try session.decrypt(message).plaintext, Array("after export \(index)".utf8))
        }
        XCTAssertThrowsError(try MegolmKeyExport.openKeys(text, passphrase: "from nio!")) { error in
            XCTAssertEqual(error as? KeyExportRefusal, .wrongPassphraseOrChanged)
        }
    }
}
