import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Cross-signing: our keys from secret storage, the published identity's checks, and our
/// device signed with the self-signing key. The device signature's known answer was computed
/// independently with Python's `cryptography` (Ed25519 over the canonical JSON of the device
/// keys below, self-signing seed 60 61 … 7f) and is kept here as a constant.
final class CrossSigningTests: XCTestCase {
    let userID = "@alice:example.org"
    let deviceKeys: JSONValue = [
        "user_id": "@alice:example.org", "device_id": "JLAFKJWSCS",
        "algorithms": ["m.olm.v1.curve25519-aes-sha2", "m.megolm.v1.aes-sha2"],
        "keys": ["curve25519:JLAFKJWSCS": "3C5BFWi2Y8MaVvjM8M22DBmh24PmgR0nPvJOIArzgyI",
                 "ed25519:JLAFKJWSCS": "lEuiRJBit0IG6nUf5pUzWTUEsRVVe/HJkoKuEww9ULI"],
    ]

    func keys() throws -> CrossSigningKeys {
        try CrossSigningKeys(userID: userID, masterSeed: (0x40 ..< 0x60).map { UInt8($0) },
                             selfSigningSeed: (0x60 ..< 0x80).map { UInt8($0) }, userSigningSeed: (0x80 ..< 0xa0).map { UInt8($0) })
    }

    func testSigningOurDeviceMatchesTheIndependentSignatureAndTheUploadShape() throws {
        let keys = try keys()
        XCTAssertEqual(UnpaddedBase64.encode(keys.selfSigning.publicKey), "F0VTtFbd38aQjsqxwQH+arIeK6oGF3lbfUOmNIKZP9U")
        var withOwnSignature = try XCTUnwrap(deviceKeys.object)
        withOwnSignature["signatures"] = [userID: ["ed25519:JLAFKJWSCS": "the device's own"]]
        withOwnSignature["unsigned"] = ["device_display_name": "comment-tui"]
        let body = try keys.signaturesUploadBody(deviceKeys: .object(withOwnSignature))
        let signed = try XCTUnwrap(body[userID]?["JLAFKJWSCS"])
        XCTAssertEqual(signed["signatures"]?[userID]?["ed25519:F0VTtFbd38aQjsqxwQH+arIeK6oGF3lbfUOmNIKZP9U"]?.string,
                       "aSVEQbeqny2J0oB/Dk9wAvWEMZW1eDGboKBud+t4rXb3AG620zWuB7Isu8q9bEIYPQm/XIfJMz/65Kk8pUacAg")
        XCTAssertEqual(signed["signatures"]?[userID]?["ed25519:JLAFKJWSCS"]?.string, "the device's own", "kept beside ours")
        XCTAssertNil(signed["unsigned"])
        let identity = try keys.publicIdentity()
        XCTAssertTrue(identity.hasCrossSigned(deviceKeys: signed))
        XCTAssertFalse(identity.hasCrossSigned(deviceKeys: deviceKeys), "unsigned")
        XCTAssertThrowsError(try keys.signDevice(["user_id": "@mallory:example.org", "device_id": "X"]), "another user's device")
        XCTAssertEqual(body[userID]?.object?.count, 1, "only the device without the device's key")
        // With the device's key, the master key signed by the device goes along under its own id.
        let deviceKey = try Ed25519KeyPair(seed: [UInt8](repeating: 9, count: 32))
        let both = try keys.signaturesUploadBody(deviceKeys: deviceKeys, deviceKey: deviceKey)
        let master = try XCTUnwrap(both[userID]?[identity.master.publicKeyBase64])
        XCTAssertEqual(try CrossSigningPublicKey(json: master, usage: .master, userID: userID).publicKey, keys.master.publicKey)
        XCTAssertTrue(JSONSigning.verify(master, userID: userID, keyID: "JLAFKJWSCS", publicKey: deviceKey.publicKey))
        XCTAssertFalse(JSONSigning.verify(master, userID: userID, keyID: "JLAFKJWSCS", publicKey: keys.master.publicKey))
        XCTAssertEqual(both[userID]?["JLAFKJWSCS"], try keys.signDevice(deviceKeys))
        XCTAssertFalse("\(keys)".contains(UnpaddedBase64.encode(keys.master.seed)))
    }

    func testAPublishedIdentityIsCheckedAndAForgedOrChangedOneRefused() throws {
        let keys = try keys()
        let identity = try keys.publicIdentity()
        let response: JSONValue = [
            "master_keys": [userID: identity.master.json],
            "self_signing_keys": [userID: identity.selfSigning.json],
            "user_signing_keys": [userID: try XCTUnwrap(identity.userSigning).json],
        ]
        XCTAssertEqual(try CrossSigningIdentity.fromKeysQuery(response, userID: userID), identity)
        XCTAssertNil(try CrossSigningIdentity.fromKeysQuery(response, userID: "@bob:example.org"), "no identity published")
        // A self-signing key signed by another master key (a forgery) is refused.
        var random = SeededBytes(seed: 1756)
        let other = try CrossSigningKeys.generate(userID: userID, random: &random).publicIdentity()
        XCTAssertThrowsError(try CrossSigningIdentity(userID: userID, master: identity.master.json, selfSigning: other.selfSigning.json)) { error in
            XCTAssertEqual("\(error)", "the self-signing key of \(userID) is not signed by their master key")
        }
        // A changed byte in the signed key object breaks the signature.
        var tampered = try XCTUnwrap(identity.selfSigning.json.object)
        tampered["usage"] = ["self_signing", "master"]
        XCTAssertThrowsError(try CrossSigningIdentity(userID: userID, master: identity.master.json, selfSigning: .object(tampered)))
        XCTAssertThrowsError(try CrossSigningIdentity(userID: userID, master: identity.master.json, selfSigning: identity.selfSigning.json,
                                                      userSigning: other.userSigning?.json), "user-signing key of another master")
        XCTAssertThrowsError(try CrossSigningIdentity(userID: "@bob:example.org", master: identity.master.json, selfSigning: identity.selfSigning.json))
        XCTAssertThrowsError(try CrossSigningIdentity(userID: userID, master: identity.selfSigning.json, selfSigning: identity.selfSigning.json),
                             "the wrong usage")
        // Our secret storage's keys must be the published ones.
        XCTAssertNoThrow(try keys.checkMatches(identity))
        XCTAssertThrowsError(try keys.checkMatches(other)) { error in
            XCTAssertTrue("\(error)".contains("not the ones the server publishes"), "\(error)")
        }
        // A device signed by another self-signing key is not cross-signed by this identity.
        let signedByOther = try CrossSigningKeys.generate(userID: userID, random: &random).signDevice(deviceKeys)
        XCTAssertFalse(identity.hasCrossSigned(deviceKeys: signedByOther))
    }

    func testKeysComeBackFromSecretStorageAndSignAgain() throws {
        var random = SeededBytes(seed: 4)
        let (storage, description) = try SecretStorageKey.generate(keyID: "SSSS", name: "Recovery key", random: &random)
        let keys = try keys()
        var accountData = try keys.secretEventContents(for: storage, random: &random)
        accountData[SecretStorageKeyDescription.eventType(keyID: "SSSS")] = description.content
        accountData[SecretStorageKeyDescription.defaultKeyEventType] = ["key": "SSSS"]
        // As the client will: the default key's id, its description, the typed recovery key, the secrets.
        let read = try SecretStorageKeyDescription.defaultKey(in: accountData)
        XCTAssertEqual(read, description)
        XCTAssertThrowsError(try SecretStorageKeyDescription.defaultKey(in: [:])) { error in
            XCTAssertEqual("\(error)", "this account has no secret storage (set up a recovery key in Element first)")
        }
        XCTAssertThrowsError(try SecretStorageKeyDescription.defaultKey(in: [SecretStorageKeyDescription.defaultKeyEventType: ["key": "GONE"]]))
        let opened = try SecretStorageKey(recoveryKey: RecoveryKey(typed: storage.recoveryKey.displayed), description: read)
        let restored = try CrossSigningKeys(userID: userID, secretStorage: opened, accountData: accountData)
        XCTAssertEqual(restored.master.seed, keys.master.seed)
        XCTAssertEqual(restored.selfSigning.seed, keys.selfSigning.seed)
        XCTAssertEqual(restored.userSigning.seed, keys.userSigning.seed)
        XCTAssertNoThrow(try restored.checkMatches(keys.publicIdentity()))
        accountData[CrossSigningKeys.userSigningSecretName] = nil
        XCTAssertThrowsError(try CrossSigningKeys(userID: userID, secretStorage: opened, accountData: accountData)) { error in
            XCTAssertTrue("\(error)".contains("has no m.cross_signing.user_signing key"), "\(error)")
        }
        // A secret that decrypts but is not a 32-byte key.
        accountData[CrossSigningKeys.userSigningSecretName] = try opened.encryptedEventContent(secret: "short", named: CrossSigningKeys.userSigningSecretName, random: &random)
        XCTAssertThrowsError(try CrossSigningKeys(userID: userID, secretStorage: opened, accountData: accountData))
    }
}
