import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A backup version's `auth_data` checked (our key, our trusted identity's signature), and the
/// decoder of backed-up sessions fuzzed: hostile answers give errors, never crashes.
final class MegolmBackupTests: XCTestCase {
    private let userID = "@ann:example.org"

    private func setUp(seed: UInt64) throws -> (key: MegolmBackupKey, master: Ed25519KeyPair, device: Ed25519KeyPair, version: MegolmBackupVersion) {
        var random = SeededBytes(seed: seed)
        let key = try MegolmBackupKey.generate(random: &random)
        let master = try Ed25519KeyPair(random: &random), device = try Ed25519KeyPair(random: &random)
        let authData = try MegolmBackupVersion.authData(key: key, userID: userID, master: master, deviceID: "DEV", deviceSign: device.sign)
        let version = try MegolmBackupVersion(json: ["version": "1", "algorithm": .string(MegolmBackupKey.algorithm), "auth_data": authData])
        return (key, master, device, version)
    }

    func testSignedByOurMasterKeyOrDeviceIsTrusted() throws {
        let made = try setUp(seed: 1)
        try made.version.checkTrusted(key: made.key, signers: .init(userID: userID, masterKey: made.master.publicKey, deviceID: "OTHER",
                                                                   deviceKey: made.master.publicKey))
        try made.version.checkTrusted(key: made.key, signers: .init(userID: userID, masterKey: nil, deviceID: "DEV",
                                                                   deviceKey: made.device.publicKey))
    }

    func testTamperedSignatureAnotherKeyOrAStrangersSignatureIsRefused() throws {
        let made = try setUp(seed: 2)
        let signers = MegolmBackupVersion.Signers(userID: userID, masterKey: made.master.publicKey, deviceID: "DEV", deviceKey: made.device.publicKey)
        // Each signature with one bit flipped.
        var tampered = made.version.authData
        for (keyID, value) in made.version.authData["signatures"]?[userID]?.object ?? [:] {
            var bytes = try XCTUnwrap(UnpaddedBase64.decode(XCTUnwrap(value.string)))
            bytes[5] ^= 0x10
            var signatures = tampered["signatures"]?[userID]?.object ?? [:]
            signatures[keyID] = .string(UnpaddedBase64.encode(bytes))
            tampered = tampered.setting("signatures", to: [userID: .object(signatures)])
        }
        let forged = try MegolmBackupVersion(json: ["version": "1", "algorithm": .string(MegolmBackupKey.algorithm), "auth_data": tampered])
        XCTAssertThrowsError(try forged.checkTrusted(key: made.key, signers: signers)) {
            XCTAssertEqual(($0 as? MegolmBackupRefusal)?.reason, "the key backup on the homeserver is not signed by your verified identity")
        }
        // Signed properly, but by keys that are not ours.
        let stranger = try setUp(seed: 3)
        XCTAssertThrowsError(try stranger.version.checkTrusted(key: stranger.key, signers: signers))
        // Our signatures, but another public key than ours.
        XCTAssertThrowsError(try made.version.checkTrusted(key: stranger.key, signers: signers)) {
            XCTAssert("\($0)".contains("another public key"), "\($0)")
        }
        // The public key swapped under our signatures.
        let swapped = made.version.authData.setting("public_key", to: .string(stranger.key.publicKeyBase64))
        let moved = try MegolmBackupVersion(json: ["version": "1", "algorithm": .string(MegolmBackupKey.algorithm), "auth_data": swapped])
        XCTAssertThrowsError(try moved.checkTrusted(key: stranger.key, signers: signers))
    }

    func testVersionAnswersThatAreNotBackupsAreRefused() {
        let bad: [JSONValue] = [[:], ["version": "1"], ["version": "1", "algorithm": "m.other", "auth_data": ["public_key": "AAAA"]],
                                ["version": "1", "algorithm": .string(MegolmBackupKey.algorithm), "auth_data": ["public_key": "AAAA"]],
                                ["version": 5, "algorithm": .string(MegolmBackupKey.algorithm), "auth_data": [:]]]
        for answer in bad { XCTAssertThrowsError(try MegolmBackupVersion(json: answer), "\(answer)") }
    }

    /// Session data mangled at random (parts cut, swapped, flipped, of other types, huge):
    /// each is refused with a reason, never a crash; the intact ones still open.
    func testSeededFuzzOfBackedUpSessions() throws {
        var random = SeededBytes(seed: 2034)
        let key = try MegolmBackupKey.generate(random: &random)
        let outbound = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let session = MegolmBackupSession(sessionKey: try MegolmInboundSession(sessionKey: outbound.sessionKey()).export(at: 0),
                                          senderKey: UnpaddedBase64.encode(try random.bytes(32)), senderClaimedEd25519: nil)
        let good = try key.encrypt(session, random: &random).json
        var seeded = SeededRandom(seed: 4)
        var refused = 0
        for _ in 0 ..< 2000 {
            var data = good.object ?? [:]
            let field = ["ciphertext", "mac", "ephemeral"].randomElement(using: &seeded)!
            switch Int.random(in: 0 ..< 7, using: &seeded) {
            case 0: data[field] = nil
            case 1: data[field] = .number(Double(Int.random(in: -5 ... 5, using: &seeded)))
            case 2:
                var bytes = UnpaddedBase64.decode(data[field]?.string ?? "") ?? []
                if !bytes.isEmpty { bytes[Int.random(in: 0 ..< bytes.count, using: &seeded)] ^= UInt8.random(in: 1 ... 255, using: &seeded) }
                data[field] = .string(UnpaddedBase64.encode(bytes))
            case 3:
                var text = Array((data[field]?.string ?? "").utf8)
                text = Array(text.prefix(Int.random(in: 0 ... text.count, using: &seeded)))
                data[field] = .string(String(decoding: text, as: UTF8.self))
            case 4: data[field] = .string(UnpaddedBase64.encode(olmTestBytes(Int.random(in: 0 ... 200, using: &seeded), &seeded)))
            case 5: data[field] = .string(String(repeating: "A", count: Int.random(in: 60_000 ... 70_000, using: &seeded)))
            default: data[field] = .string(String(decoding: olmTestBytes(Int.random(in: 0 ... 40, using: &seeded), &seeded), as: UTF8.self))
            }
            do {
                let opened = try key.decrypt(sessionData: .object(data))
                XCTAssertEqual(opened.sessionID, outbound.sessionID, "only an unchanged session opens")
            } catch let refusal as MegolmBackupRefusal {
                XCTAssertFalse(refusal.reason.isEmpty)
                refused += 1
            } catch {
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, 1300)
        XCTAssertEqual(try key.decrypt(sessionData: good).sessionID, outbound.sessionID)
    }

    /// A sealed plaintext that is not a session (not JSON, another algorithm, a broken key) is refused.
    func testSealedNonSessionsAreRefused() throws {
        var random = SeededBytes(seed: 5)
        let key = try MegolmBackupKey.generate(random: &random)
        for plaintext in ["not json", "{}", #"{"algorithm":"m.megolm.v1.aes-sha2","sender_key":"AAAA","session_key":"AAAA"}"#,
                          #"{"algorithm":"m.olm.v1","sender_key":"x","session_key":"y"}"#] {
            let sealed = try MegolmBackupCipher.encrypt(Array(plaintext.utf8), to: key.publicKey, random: &random)
            XCTAssertThrowsError(try key.decrypt(sessionData: sealed.json), plaintext)
        }
    }

    func testSecretRoundTripsAndPrintsNoPrivateKey() throws {
        var random = SeededBytes(seed: 6)
        let key = try MegolmBackupKey.generate(random: &random)
        XCTAssertEqual(try MegolmBackupKey(secret: key.secret).publicKeyBase64, key.publicKeyBase64)
        XCTAssertThrowsError(try MegolmBackupKey(secret: "not base64!"))
        XCTAssertThrowsError(try MegolmBackupKey(secret: UnpaddedBase64.encode([1, 2, 3])))
        for printed in ["\(key)", String(reflecting: key), "\(Mirror(reflecting: key).children.map(\.value))"] {
            XCTAssertFalse(printed.contains(key.secret), printed)
        }
        let stored = try JSONDecoder().decode(MegolmBackupKey.self, from: JSONEncoder().encode(key))
        XCTAssertEqual(stored.publicKeyBase64, key.publicKeyBase64)
    }
}

private extension JSONValue {
    /// This object with `key` set to `value`.
    func setting(_ key: String, to value: JSONValue) -> JSONValue {
        var members = object ?? [:]
        members[key] = value
        return .object(members)
    }
}
