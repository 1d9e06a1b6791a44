import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Our OlmAccount against libolm's, fed the same random bytes: the same keys, key ids and JSON.
final class OlmAccountDifferentialTests: XCTestCase {
    func testIdentityKeysMatchLibolm() throws {
        var seeded = SeededRandom(seed: 33)
        for _ in 0 ..< 20 {
            let random = olmTestBytes(64, &seeded)
            var source = FixedRandom(random)
            let ours = try OlmAccount(random: &source)
            XCTAssertTrue(source.isExhausted, "an account takes 64 bytes, as libolm's does")
            let theirs = try LibolmAccount(random: random).identityKeys
            XCTAssertEqual(theirs["curve25519"]?.string, UnpaddedBase64.encode(ours.curve25519Key))
            XCTAssertEqual(theirs["ed25519"]?.string, UnpaddedBase64.encode(ours.ed25519Key))
        }
    }

    func testOneTimeKeysAndTheirIdsMatchLibolmAcrossPublishingAndTheLimit() throws {
        var seeded = SeededRandom(seed: 34)
        let accountRandom = olmTestBytes(64, &seeded)
        var source = FixedRandom(accountRandom)
        var ours = try OlmAccount(random: &source)
        let theirs = try LibolmAccount(random: accountRandom)
        // Batches that cross the 100-key limit, with publishing in between.
        for (index, count) in [0, 1, 5, 37, 60, 20, 3].enumerated() {
            let random = olmTestBytes(32 * count, &seeded)
            var batch = FixedRandom(random)
            try ours.generateOneTimeKeys(count, random: &batch)
            try theirs.generateOneTimeKeys(count, random: random)
            XCTAssertEqual(ours.oneTimeKeysJSON, try theirs.oneTimeKeys, "batch \(index)")
            if index % 2 == 1 {
                let unpublished = ours.unpublishedOneTimeKeys.count
                XCTAssertEqual(ours.markKeysAsPublished(), unpublished)
                theirs.markKeysAsPublished()
                XCTAssertEqual(ours.oneTimeKeysJSON, try theirs.oneTimeKeys)
                XCTAssertEqual(ours.oneTimeKeysJSON, .object(["curve25519": .object([:])]))
            }
        }
        XCTAssertEqual(ours.oneTimeKeyCount, OlmAccount.maxOneTimeKeys)
        XCTAssertEqual(ours.unpublishedOneTimeKeys.first?.keyID, UnpaddedBase64.encode([0, 0, 0, 126]), "ids count on past the limit")
    }

    func testFallbackKeyRotationMatchesLibolm() throws {
        var seeded = SeededRandom(seed: 35)
        let accountRandom = olmTestBytes(64, &seeded)
        var source = FixedRandom(accountRandom)
        var ours = try OlmAccount(random: &source)
        let theirs = try LibolmAccount(random: accountRandom)
        XCTAssertEqual(ours.fallbackKeyJSON, try theirs.unpublishedFallbackKey)
        let oneTimeRandom = olmTestBytes(64, &seeded)
        var oneTime = FixedRandom(oneTimeRandom)
        try ours.generateOneTimeKeys(2, random: &oneTime)
        try theirs.generateOneTimeKeys(2, random: oneTimeRandom)
        for round in 0 ..< 3 {
            let random = olmTestBytes(32, &seeded)
            var fallback = FixedRandom(random)
            try ours.generateFallbackKey(random: &fallback)
            try theirs.generateFallbackKey(random: random)
            XCTAssertEqual(ours.fallbackKeyJSON, try theirs.unpublishedFallbackKey, "round \(round)")
            XCTAssertEqual(ours.unpublishedFallbackKey?.id, UInt32(3 + round), "fallback keys share the one-time keys' counter")
            ours.markKeysAsPublished()
            theirs.markKeysAsPublished()
            XCTAssertEqual(ours.fallbackKeyJSON, try theirs.unpublishedFallbackKey)
            XCTAssertNil(ours.unpublishedFallbackKey)
            XCTAssertNotNil(ours.currentFallbackKey)
        }
    }

    func testASessionToThePreviousFallbackKeyWorksUntilItIsForgotten() throws {
        var seeded = SeededRandom(seed: 36)
        var source = FixedRandom(olmTestBytes(64 + 32 + 32, &seeded))
        var bob = try OlmAccount(random: &source)
        try bob.generateFallbackKey(random: &source)
        let oldFallback = try XCTUnwrap(bob.currentFallbackKey).publicKey
        try bob.generateFallbackKey(random: &source)
        var aliceRandom = FixedRandom(olmTestBytes(64 + 64, &seeded))
        let alice = try OlmAccount(random: &aliceRandom)
        var session = try OlmSession.outbound(account: alice, theirIdentityKey: bob.curve25519Key, theirOneTimeKey: oldFallback, random: &aliceRandom)
        let message = try session.encrypt(utf8("to the old fallback key"), random: &aliceRandom)
        let (inbound, plaintext) = try OlmSession.inbound(account: bob, preKeyMessage: message.bytes)
        XCTAssertEqual(plaintext, utf8("to the old fallback key"))
        XCTAssertTrue(bob.removeOneTimeKey(usedBy: inbound), "a fallback key counts as used")
        XCTAssertNotNil(try OlmSession.inbound(account: bob, preKeyMessage: message.bytes), "a fallback key is not removed by use")
        bob.forgetOldFallbackKey()
        XCTAssertThrowsError(try OlmSession.inbound(account: bob, preKeyMessage: message.bytes)) { error in
            XCTAssertEqual((error as? OlmDecryptionError)?.reason, .unknownOneTimeKey)
        }
    }

    func testSignaturesAreLibolmsAndTheUploadBodyIsSignedAsTheSpecSays() throws {
        var seeded = SeededRandom(seed: 37)
        let accountRandom = olmTestBytes(64, &seeded)
        var source = FixedRandom(accountRandom + olmTestBytes(32 * 3 + 32, &seeded))
        var ours = try OlmAccount(random: &source)
        let theirs = try LibolmAccount(random: accountRandom)
        let message = utf8(#"{"a":1,"b":"two"}"#)
        XCTAssertEqual(UnpaddedBase64.encode(try ours.sign(message)), try theirs.sign(message))
        try ours.generateOneTimeKeys(3, random: &source)
        try ours.generateFallbackKey(random: &source)

        let body = try ours.keysUploadBody(userID: "@alice:example.org", deviceID: "JLAFKJWSCS", includingDeviceKeys: true)
        let device = try XCTUnwrap(body["device_keys"])
        XCTAssertEqual(device["keys"]?["curve25519:JLAFKJWSCS"]?.string, UnpaddedBase64.encode(ours.curve25519Key))
        XCTAssertEqual(device["keys"]?["ed25519:JLAFKJWSCS"]?.string, UnpaddedBase64.encode(ours.ed25519Key))
        XCTAssertEqual(device["algorithms"], .array([.string("m.olm.v1.curve25519-aes-sha2"), .string("m.megolm.v1.aes-sha2")]))
        XCTAssertEqual(device["user_id"]?.string, "@alice:example.org")
        XCTAssertTrue(JSONSigning.verify(device, userID: "@alice:example.org", keyID: "JLAFKJWSCS", publicKey: ours.ed25519Key))
        // libolm signs the same canonical bytes to the same signature (Ed25519 is deterministic).
        XCTAssertEqual(device["signatures"]?["@alice:example.org"]?["ed25519:JLAFKJWSCS"]?.string,
                       try theirs.sign(JSONSigning.signedBytes(of: device)))

        let oneTime = try XCTUnwrap(body["one_time_keys"]?.object)
        XCTAssertEqual(Set(oneTime.keys), ["signed_curve25519:AAAAAQ", "signed_curve25519:AAAAAg", "signed_curve25519:AAAAAw"])
        for (_, key) in oneTime {
            XCTAssertNil(key["fallback"])
            XCTAssertTrue(JSONSigning.verify(key, userID: "@alice:example.org", keyID: "JLAFKJWSCS", publicKey: ours.ed25519Key))
        }
        XCTAssertEqual(Set(ours.unpublishedOneTimeKeys.map(\.base64)), Set(oneTime.values.compactMap { $0["key"]?.string }))
        let fallback = try XCTUnwrap(body["fallback_keys"]?["signed_curve25519:AAAABA"])
        XCTAssertEqual(fallback["fallback"], .bool(true))
        XCTAssertTrue(JSONSigning.verify(fallback, userID: "@alice:example.org", keyID: "JLAFKJWSCS", publicKey: ours.ed25519Key))
        // A tampered key must not verify, or the checks above prove nothing.
        var tampered = try XCTUnwrap(fallback.object)
        tampered["fallback"] = .bool(false)
        XCTAssertFalse(JSONSigning.verify(.object(tampered), userID: "@alice:example.org", keyID: "JLAFKJWSCS", publicKey: ours.ed25519Key))

        ours.markKeysAsPublished()
        let after = try ours.keysUploadBody(userID: "@alice:example.org", deviceID: "JLAFKJWSCS", includingDeviceKeys: false)
        XCTAssertEqual(after, .object([:]), "nothing left to publish")
    }

    func testAStoredAccountReadsBackAndADamagedOneIsRefused() throws {
        var seeded = SeededRandom(seed: 38)
        var source = FixedRandom(olmTestBytes(64 + 32 * 5 + 32, &seeded))
        var account = try OlmAccount(random: &source)
        try account.generateOneTimeKeys(5, random: &source)
        try account.generateFallbackKey(random: &source)
        let stored = try JSONEncoder().encode(account)
        XCTAssertEqual(try JSONDecoder().decode(OlmAccount.self, from: stored), account)

        var object = try XCTUnwrap(try JSONValue(parsing: stored).object)
        var wrongKey = account.curve25519Key
        wrongKey[0] ^= 1
        object["curve25519Key"] = .string(UnpaddedBase64.encode(wrongKey))
        let damaged = try JSONEncoder().encode(JSONValue.object(object))
        XCTAssertThrowsError(try JSONDecoder().decode(OlmAccount.self, from: damaged))
        object["curve25519Key"] = .string("not base64!")
        XCTAssertThrowsError(try JSONDecoder().decode(OlmAccount.self, from: try JSONEncoder().encode(JSONValue.object(object))))
    }
}
