import COlm
import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// The key backup's cipher against libolm's `pk.h`, fed the same random bytes: the same public
/// key from a private key, byte-equal ciphertext, MAC and ephemeral key, and each side opens
/// what the other sealed.
final class MegolmBackupOracleTests: XCTestCase {
    func testSameRandomGivesLibolmsBytesAndEachOpensTheOthers() throws {
        var seeded = SeededRandom(seed: 34)
        for round in 0 ..< 40 {
            let privateKey = olmTestBytes(32, &seeded)
            let key = try MegolmBackupKey(privateKey: privateKey)
            let libolmPublic = try LibolmPk.publicKey(privateKey: privateKey)
            XCTAssertEqual(key.publicKeyBase64, libolmPublic, "round \(round): public key")

            let plaintext = olmTestBytes(Int.random(in: 0 ... 700, using: &seeded), &seeded)
            let ephemeral = olmTestBytes(32, &seeded)
            let theirs = try LibolmPk.encrypt(plaintext, to: libolmPublic, random: ephemeral)
            var random = FixedRandom(ephemeral)
            let ours = try MegolmBackupCipher.encrypt(plaintext, to: key.publicKey, random: &random)
            XCTAssertEqual(UnpaddedBase64.encode(ours.ciphertext), theirs.ciphertext, "round \(round): ciphertext")
            XCTAssertEqual(UnpaddedBase64.encode(ours.mac), theirs.mac, "round \(round): MAC")
            XCTAssertEqual(UnpaddedBase64.encode(ours.ephemeral), theirs.ephemeral, "round \(round): ephemeral key")

            // Fresh randomness on each side: each opens the other's.
            let libolmSealed = try LibolmPk.encrypt(plaintext, to: libolmPublic, random: olmTestBytes(32, &seeded))
            let read = try MegolmBackupCipher.decrypt(MegolmBackupCiphertext(json: [
                "ciphertext": .string(libolmSealed.ciphertext), "mac": .string(libolmSealed.mac), "ephemeral": .string(libolmSealed.ephemeral),
            ]), with: key.keyPair)
            XCTAssertEqual(read, plaintext, "round \(round): libolm's opened by ours")
            var system = SystemRandom()
            let sealed = try MegolmBackupCipher.encrypt(plaintext, to: key.publicKey, random: &system)
            let opened = try LibolmPk.decrypt(ciphertext: UnpaddedBase64.encode(sealed.ciphertext), mac: UnpaddedBase64.encode(sealed.mac),
                                              ephemeral: UnpaddedBase64.encode(sealed.ephemeral), privateKey: privateKey)
            XCTAssertEqual(opened, plaintext, "round \(round): ours opened by libolm")
        }
    }

    /// A backed-up session as our code writes it is one libolm opens to the same JSON.
    func testBackedUpSessionOpensWithLibolm() throws {
        var seeded = SeededBytes(seed: 7)
        let key = try MegolmBackupKey.generate(random: &seeded)
        let outbound = try MegolmOutboundSession(random: &seeded, createdAtMilliseconds: 0)
        let session = MegolmBackupSession(sessionKey: try MegolmInboundSession(sessionKey: outbound.sessionKey()).export(at: 0),
                                          senderKey: UnpaddedBase64.encode(try seeded.bytes(32)), senderClaimedEd25519: "claimed")
        let sealed = try key.encrypt(session, random: &seeded)
        let opened = try LibolmPk.decrypt(ciphertext: UnpaddedBase64.encode(sealed.ciphertext), mac: UnpaddedBase64.encode(sealed.mac),
                                          ephemeral: UnpaddedBase64.encode(sealed.ephemeral), privateKey: key.keyPair.privateKey)
        let json = try JSONValue(parsing: Data(opened))
        XCTAssertEqual(json["session_key"]?.string, session.sessionKey.base64)
        XCTAssertEqual(json["algorithm"]?.string, "m.megolm.v1.aes-sha2")
        let back = try key.decrypt(sessionData: sealed.json)
        XCTAssertEqual(back.sessionID, outbound.sessionID)
        XCTAssertEqual(back.senderClaimedEd25519, "claimed")
    }

    /// libolm refuses what another key sealed, and so do we.
    func testAnotherKeysCiphertextIsRefusedByBoth() throws {
        var seeded = SeededRandom(seed: 99)
        let ours = try MegolmBackupKey(privateKey: olmTestBytes(32, &seeded))
        let other = olmTestBytes(32, &seeded)
        let sealed = try LibolmPk.encrypt(Array("{}".utf8), to: LibolmPk.publicKey(privateKey: other), random: olmTestBytes(32, &seeded))
        let data: JSONValue = ["ciphertext": .string(sealed.ciphertext), "mac": .string(sealed.mac), "ephemeral": .string(sealed.ephemeral)]
        XCTAssertThrowsError(try ours.decrypt(sessionData: data)) { XCTAssert($0 is MegolmBackupRefusal, "\($0)") }
        XCTAssertThrowsError(try LibolmPk.decrypt(ciphertext: sealed.ciphertext, mac: sealed.mac, ephemeral: sealed.ephemeral,
                                                  privateKey: ours.keyPair.privateKey))
    }
}
