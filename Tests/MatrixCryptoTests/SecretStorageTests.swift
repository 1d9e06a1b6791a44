import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Secret storage (`m.secret_storage.v1.aes-hmac-sha2`): the key check, passphrases, and
/// secrets in and out. The known answers were computed independently with Python's
/// `cryptography` package (HKDF-SHA-256, AES-256-CTR, HMAC-SHA-256) and `hashlib.pbkdf2_hmac`
/// following the spec's construction, and are kept here as constants.
final class SecretStorageTests: XCTestCase {
    /// Key 00 01 … 1f; IV a0 … af with bit 63 cleared (byte 8: a8 → 28).
    let key = (0 ..< 32).map { UInt8($0) }
    let iv = hex("a0a1a2a3a4a5a6a728a9aaabacadaeaf")
    /// The MAC of 32 zero bytes encrypted under the empty name with that key and IV (Python).
    let checkMAC = "mR17ke0NX9DYg2vVAWmVosSM2ZRW0moI2UCgc/3mlfo"
    /// The seed 40 41 … 5f in base64, the secret text, and its encryption as `m.cross_signing.master` (Python).
    let masterSecret = "QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8"
    let masterCiphertext = "0+lvavZ8P+oP7EJM4MctKOsXU9J/vhMmFlFni0YB+loL1dwNtxt6L+AgJw"
    let masterMAC = "t5ERD6cdHLAOEApbw17SAXnxTH9FWkIhKXbhq51z11g"

    func description(mac: String? = nil, passphrase: JSONValue? = nil) throws -> SecretStorageKeyDescription {
        var content: [String: JSONValue] = [
            "algorithm": "m.secret_storage.v1.aes-hmac-sha2", "name": "Recovery key",
            "iv": .string(UnpaddedBase64.encode(iv)), "mac": .string(mac ?? checkMAC),
        ]
        content["passphrase"] = passphrase
        return try SecretStorageKeyDescription(keyID: "KEYID", content: .object(content))
    }

    func testTheKeyCheckMatchesTheIndependentlyComputedMAC() throws {
        let encrypted = try SecretStorageCipher.encrypt([UInt8](repeating: 0, count: 32), name: "", key: key, iv: iv)
        XCTAssertEqual(UnpaddedBase64.encode(encrypted.mac), checkMAC)
        let opened = try SecretStorageKey(recoveryKey: RecoveryKey(key: key), description: description())
        XCTAssertEqual(opened.keyID, "KEYID")
        XCTAssertEqual(opened.bytes, key)
        XCTAssertFalse("\(opened)".contains(UnpaddedBase64.encode(key)), "a key's description never shows its bytes")
    }

    /// Key descriptions another implementation published with its tests (matrix-rust-sdk,
    /// crates/matrix-sdk-crypto/src/secret_storage.rs): a recovery key and a passphrase that
    /// open them. Padded base64 in one, no `bits` in the other, as real accounts have them.
    func testKeyDescriptionsFromAnotherImplementationOpen() throws {
        let byRecoveryKey = try SecretStorageKeyDescription(keyID: "bmur2d9ypPUH1msSwCxQOJkuKRmJI55e", content: [
            "algorithm": "m.secret_storage.v1.aes-hmac-sha2",
            "iv": "xv5b6/p3ExEw++wTyfSHEg==", "mac": "ujBBbXahnTAMkmPUX2/0+VTfUh63pGyVRuBcDMgmJC8=",
        ])
        let typed = try RecoveryKey(typed: "EsTj 3yST y93F SLpB jJsz eAXc 2XzA ygD3 w69H fGaN TKBj jXEd")
        XCTAssertEqual(try SecretStorageKey(recoveryKey: typed, description: byRecoveryKey).keyID, "bmur2d9ypPUH1msSwCxQOJkuKRmJI55e")
        XCTAssertThrowsError(try SecretStorageKey(recoveryKey: RecoveryKey(key: key), description: byRecoveryKey))
        let byPassphrase = try SecretStorageKeyDescription(keyID: "DZkbKc0RtKSq0z8V61w6KBmJCK6OCiIu", content: [
            "algorithm": "m.secret_storage.v1.aes-hmac-sha2",
            "iv": "gH2iNpiETFhApvW6/FFEJQ", "mac": "9Lw12m5SKDipNghdQXKjgpfdj1/K7HFI2brO+UWAGoM",
            "passphrase": ["algorithm": "m.pbkdf2", "salt": "IuLnH7S85YtZmkkBJKwNUKxWF42g9O1H", "iterations": 10],
        ])
        XCTAssertNoThrow(try SecretStorageKey(passphrase: "It's a secret to everybody", description: byPassphrase))
        XCTAssertThrowsError(try SecretStorageKey(passphrase: "It's a secret to nobody", description: byPassphrase)) { error in
            XCTAssertEqual(error as? SecretStorageRefusal, .wrongPassphrase)
        }
    }

    func testAWrongRecoveryKeyIsRefusedInWords() throws {
        var wrong = key
        wrong[31] ^= 1
        XCTAssertThrowsError(try SecretStorageKey(recoveryKey: RecoveryKey(key: wrong), description: description())) { error in
            XCTAssertEqual(error as? SecretStorageRefusal, .wrongRecoveryKey)
            XCTAssertEqual("\(error)", "this recovery key does not open this account's secret storage")
        }
        // The description's own MAC changed: the right key no longer opens it either.
        var mac = try XCTUnwrap(UnpaddedBase64.decode(checkMAC))
        mac[0] ^= 0x80
        XCTAssertThrowsError(try SecretStorageKey(recoveryKey: RecoveryKey(key: key), description: description(mac: UnpaddedBase64.encode(mac))))
        // A key typed through RecoveryKey's own text form opens it too.
        let typed = try RecoveryKey(typed: RecoveryKey(key: key).displayed)
        XCTAssertEqual(try SecretStorageKey(recoveryKey: typed, description: description()).bytes, key)
    }

    func testAPassphraseDerivesTheKeyAndIsChecked() throws {
        // PBKDF2-HMAC-SHA-512("correct horse battery staple", "saltysalt", 1000, 32 bytes) and its check MAC (Python).
        let derived = hex("d94be677bb025c56625bb57bd8bcc06966db15a6eeeb6517ba8a7babd9a9b6b7")
        let passphrase: JSONValue = ["algorithm": "m.pbkdf2", "salt": "saltysalt", "iterations": 1000, "bits": 256]
        let described = try description(mac: "mUmAlKiID2HnHbsZV2WXdUv8nNlNNz9PBE9cDkImos0", passphrase: passphrase)
        XCTAssertEqual(try SecretStorageKey(passphrase: "correct horse battery staple", description: described).bytes, derived)
        XCTAssertThrowsError(try SecretStorageKey(passphrase: "correct horse battery stapler", description: described)) { error in
            XCTAssertEqual(error as? SecretStorageRefusal, .wrongPassphrase)
        }
        XCTAssertThrowsError(try SecretStorageKey(passphrase: "correct horse battery staple", description: description()),
                             "a key without passphrase parameters")
        // The same key's recovery key opens it as well.
        XCTAssertEqual(try SecretStorageKey(recoveryKey: RecoveryKey(key: derived), description: described).bytes, derived)
    }

    func testASecretDecryptsToTheIndependentlyComputedAnswerAndBack() throws {
        let encrypted = try SecretStorageCipher.encrypt(utf8(masterSecret), name: "m.cross_signing.master", key: key, iv: iv)
        XCTAssertEqual(UnpaddedBase64.encode(encrypted.ciphertext), masterCiphertext)
        XCTAssertEqual(UnpaddedBase64.encode(encrypted.mac), masterMAC)
        let opened = try SecretStorageKey(recoveryKey: RecoveryKey(key: key), description: description())
        // Element writes padded base64; both read.
        let content: JSONValue = ["encrypted": ["KEYID": [
            "iv": .string(Data(iv).base64EncodedString()), "ciphertext": .string(masterCiphertext), "mac": .string(masterMAC + "="),
        ]]]
        XCTAssertEqual(try opened.decryptSecret(named: "m.cross_signing.master", eventContent: content), masterSecret)
    }

    func testWrongNameTamperedMACCiphertextAndMissingKeyAreRefused() throws {
        let opened = try SecretStorageKey(recoveryKey: RecoveryKey(key: key), description: description())
        let (iv, masterCiphertext, masterMAC) = (iv, masterCiphertext, masterMAC)
        func content(ciphertext: String? = nil, mac: String? = nil, keyID: String = "KEYID") -> JSONValue {
            ["encrypted": .object([keyID: [
                "iv": .string(UnpaddedBase64.encode(iv)), "ciphertext": .string(ciphertext ?? masterCiphertext), "mac": .string(mac ?? masterMAC),
            ]])]
        }
        XCTAssertNoThrow(try opened.decryptSecret(named: "m.cross_signing.master", eventContent: content()))
        XCTAssertThrowsError(try opened.decryptSecret(named: "m.cross_signing.self_signing", eventContent: content()), "another name") { error in
            XCTAssertTrue("\(error)".contains("MAC does not check"), "\(error)")
        }
        var mac = try XCTUnwrap(UnpaddedBase64.decode(masterMAC))
        mac[5] ^= 4
        XCTAssertThrowsError(try opened.decryptSecret(named: "m.cross_signing.master", eventContent: content(mac: UnpaddedBase64.encode(mac))))
        var ciphertext = try XCTUnwrap(UnpaddedBase64.decode(masterCiphertext))
        ciphertext[0] ^= 1
        XCTAssertThrowsError(try opened.decryptSecret(named: "m.cross_signing.master", eventContent: content(ciphertext: UnpaddedBase64.encode(ciphertext))))
        XCTAssertThrowsError(try opened.decryptSecret(named: "m.cross_signing.master", eventContent: content(keyID: "OTHER"))) { error in
            XCTAssertTrue("\(error)".contains("not stored for this account's secret storage key"), "\(error)")
        }
        // A wrong key (unchecked) meets the MAC too.
        let wrong = SecretStorageKey(uncheckedKeyID: "KEYID", bytes: [UInt8](repeating: 7, count: 32))
        XCTAssertThrowsError(try wrong.decryptSecret(named: "m.cross_signing.master", eventContent: content()))
    }

    func testSeededRoundTripsClearBit63AndGeneratedKeysPassTheirOwnCheck() throws {
        var random = SeededBytes(seed: 1946)
        for round in 0 ..< 50 {
            let (key, description) = try SecretStorageKey.generate(keyID: "k\(round)", name: nil, random: &random)
            let reread = try SecretStorageKeyDescription(keyID: "k\(round)", content: description.content)
            XCTAssertEqual(reread, description)
            XCTAssertEqual(try SecretStorageKey(recoveryKey: key.recoveryKey, description: reread).bytes, key.bytes)
            let secret = String(decoding: try random.bytes(round).map { 0x20 + $0 % 0x5f }, as: UTF8.self)
            let content = try key.encryptedEventContent(secret: secret, named: "m.secret.\(round)", random: &random)
            let stored = try SecretStorageCipher.Encrypted(json: XCTUnwrap(content["encrypted"]?["k\(round)"]))
            XCTAssertEqual(stored.iv[8] & 0x80, 0, "bit 63 of the IV is clear")
            XCTAssertEqual(try key.decryptSecret(named: "m.secret.\(round)", eventContent: content), secret)
        }
    }

    func testDescriptionsAndDefaultKeyContentAreReadOrRefused() throws {
        XCTAssertEqual(try SecretStorageKeyDescription.defaultKeyID(from: ["key": "abc"]), "abc")
        XCTAssertThrowsError(try SecretStorageKeyDescription.defaultKeyID(from: ["key": 5]))
        XCTAssertThrowsError(try SecretStorageKeyDescription.defaultKeyID(from: ["key": ""]))
        XCTAssertEqual(SecretStorageKeyDescription.eventType(keyID: "abc"), "m.secret_storage.key.abc")
        XCTAssertThrowsError(try SecretStorageKeyDescription(keyID: "x", content: ["algorithm": "m.secret_storage.v0"]))
        let noCheck = try SecretStorageKeyDescription(keyID: "x", content: ["algorithm": "m.secret_storage.v1.aes-hmac-sha2"])
        XCTAssertNil(noCheck.mac, "keys older than the check have none")
        for passphrase: JSONValue in [
            ["algorithm": "m.pbkdf2", "salt": "s", "iterations": 2_000_000_000],
            ["algorithm": "m.pbkdf2", "salt": "s", "iterations": 0],
            ["algorithm": "m.pbkdf2", "salt": "s", "iterations": 10, "bits": 128],
            ["algorithm": "m.argon2", "salt": "s", "iterations": 10],
        ] {
            XCTAssertThrowsError(try description(passphrase: passphrase), "\(passphrase)")
        }
    }
}
