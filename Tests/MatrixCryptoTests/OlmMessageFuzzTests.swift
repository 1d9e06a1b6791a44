import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A seeded fuzz of the Olm message decoders: truncated, flipped, stretched and random bytes
/// are refused with an error (never a crash), leave the session as it was, and cost no more
/// memory than the message itself.
final class OlmMessageFuzzTests: XCTestCase {
    /// An established session pair: Alice's first pre-key message, Bob's session from it, and
    /// a normal message from Bob to Alice.
    private func conversation(seed: UInt64) throws -> (alice: OlmSession, bob: OlmSession, bobAccount: OlmAccount,
                                                       preKey: OlmEncryptedMessage, normal: OlmEncryptedMessage) {
        var seeded = SeededRandom(seed: seed)
        var source = FixedRandom(olmTestBytes(64 * 2 + 32 + 64 + 32, &seeded))
        let aliceAccount = try OlmAccount(random: &source)
        var bobAccount = try OlmAccount(random: &source)
        try bobAccount.generateOneTimeKeys(1, random: &source)
        var alice = try OlmSession.outbound(account: aliceAccount, theirIdentityKey: bobAccount.curve25519Key,
                                            theirOneTimeKey: bobAccount.unpublishedOneTimeKeys[0].publicKey, random: &source)
        let preKey = try alice.encrypt(olmTestBytes(40, &seeded), random: &source)
        var (bob, _) = try OlmSession.inbound(account: bobAccount, preKeyMessage: preKey.bytes)
        let normal = try bob.encrypt(olmTestBytes(40, &seeded), random: &source)
        return (alice, bob, bobAccount, preKey, normal)
    }

    /// Every way we spoil `bytes`: each truncation, single-bit flips, inserted and removed bytes.
    private func spoiled(_ bytes: [UInt8], _ seeded: inout SeededRandom) -> [[UInt8]] {
        var out = (0 ..< bytes.count).map { Array(bytes.prefix($0)) }
        for _ in 0 ..< 200 {
            var flipped = bytes
            flipped[Int.random(in: 0 ..< bytes.count, using: &seeded)] ^= 1 << UInt8.random(in: 0 ... 7, using: &seeded)
            out.append(flipped)
            var inserted = bytes
            inserted.insert(UInt8.random(in: 0 ... 255, using: &seeded), at: Int.random(in: 0 ... bytes.count, using: &seeded))
            out.append(inserted)
            var removed = bytes
            removed.remove(at: Int.random(in: 0 ..< bytes.count, using: &seeded))
            out.append(removed)
        }
        return out
    }

    func testSpoiledNormalMessagesAreRefusedAndChangeNothing() throws {
        var seeded = SeededRandom(seed: 51)
        for seed in 0 ..< 8 {
            let (alice, _, _, _, normal) = try conversation(seed: UInt64(seed))
            for bytes in spoiled(normal.bytes, &seeded) {
                var session = alice
                XCTAssertThrowsError(try session.decrypt(OlmEncryptedMessage(kind: .normal, bytes: bytes)))
                XCTAssertEqual(session, alice)
            }
            var session = alice
            XCTAssertNoThrow(try session.decrypt(normal), "the unspoiled message still decrypts")
        }
    }

    func testSpoiledMessagesOnAKnownChainOrForASkippedKeyChangeNothing() throws {
        var seeded = SeededRandom(seed: 55)
        var (alice, bob, _, _, _) = try conversation(seed: 300)
        var none = FixedRandom([])
        let messages = try (0 ..< 3).map { try bob.encrypt(utf8("\($0)"), random: &none) }
        XCTAssertEqual(try alice.decrypt(messages[1]), utf8("1"), "message 0's key is now a skipped key")
        for (index, message) in [(0, messages[0]), (2, messages[2])] {
            for bytes in spoiled(message.bytes, &seeded) {
                var session = alice
                XCTAssertThrowsError(try session.decrypt(OlmEncryptedMessage(kind: .normal, bytes: bytes)))
                XCTAssertEqual(session, alice)
            }
            var session = alice
            XCTAssertEqual(try session.decrypt(message), utf8("\(index)"))
        }
    }

    func testSpoiledPreKeyMessagesStartNoSessionAndDoNotDecryptOnTheSessionTheyCameFrom() throws {
        var seeded = SeededRandom(seed: 52)
        for seed in 0 ..< 8 {
            let (_, bob, bobAccount, preKey, _) = try conversation(seed: 100 + UInt64(seed))
            XCTAssertNoThrow(try OlmSession.inbound(account: bobAccount, preKeyMessage: preKey.bytes), "the unspoiled message works")
            for bytes in spoiled(preKey.bytes, &seeded) {
                // X25519 ignores a public key's top bit (RFC 7748, 5), so that one flip in the
                // base or identity key still agrees on the secret, as in libolm; the session id
                // differs, and the sender's known identity key catches the identity's.
                let differences = bytes.count == preKey.bytes.count ? zip(bytes, preKey.bytes).enumerated().filter { $1.0 != $1.1 } : []
                let topBitOfKey = differences.count == 1 && [68, 102].contains(differences[0].offset)
                    && differences[0].element.0 ^ differences[0].element.1 == 0x80
                if topBitOfKey {
                    let started = try OlmSession.inbound(account: bobAccount, preKeyMessage: bytes).session
                    XCTAssertNotEqual(started.sessionID, bob.sessionID)
                    if differences[0].offset == 102 {
                        XCTAssertThrowsError(try OlmSession.inbound(account: bobAccount, theirIdentityKey: Array(preKey.bytes[71 ..< 103]),
                                                                    preKeyMessage: bytes))
                    }
                } else {
                    XCTAssertThrowsError(try OlmSession.inbound(account: bobAccount, preKeyMessage: bytes))
                }
                var session = bob
                XCTAssertThrowsError(try session.decrypt(OlmEncryptedMessage(kind: .preKey, bytes: bytes)))
                XCTAssertEqual(session, bob)
            }
        }
    }

    func testRandomAndHostileBytesAreRefusedWithAReason() throws {
        var seeded = SeededRandom(seed: 53)
        let (alice, _, bobAccount, preKey, _) = try conversation(seed: 200)
        // Bob before his first reply: a new ratchet key from Alice is out of turn.
        let quietBob = try OlmSession.inbound(account: bobAccount, preKeyMessage: preKey.bytes).session
        var reasons: Set<OlmDecryptionError.Reason> = []
        var inputs: [[UInt8]] = (0 ..< 2000).map { _ in olmTestBytes(Int.random(in: 0 ... 120, using: &seeded), &seeded) }
        // Framing that looks right with lengths and numbers that do not: a length far past the
        // end, an endless varint, a 64-bit overflow, an index too far ahead, a field of kind 5.
        let key = [UInt8](repeating: 9, count: 32)
        inputs.append([3, 0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f] + key + [UInt8](repeating: 0, count: 8))
        inputs.append([3] + [UInt8](repeating: 0x80, count: 40) + [UInt8](repeating: 0, count: 8))
        inputs.append([3, 0x10] + [UInt8](repeating: 0xff, count: 10) + [1] + [UInt8](repeating: 0, count: 8))
        inputs.append([3, 0x0a, 32] + key + [0x10, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x22, 16] + [UInt8](repeating: 0, count: 16 + 8))
        inputs.append([3, 0x0a, 32] + key + [0x10, 5, 0x22, 16] + [UInt8](repeating: 0, count: 16 + 8))
        inputs.append([3, 0x0a, 32] + key + [0x12, 32] + key + [0x1a, 32] + key + [0x22, 20] + [3] + [UInt8](repeating: 0, count: 19))
        inputs.append([3, 0x0d, 1, 2, 3, 4] + [UInt8](repeating: 0, count: 8))
        inputs.append([4] + [UInt8](repeating: 0, count: 20))
        for bytes in inputs {
            for kind in [OlmEncryptedMessage.Kind.normal, .preKey] {
                var session = alice
                do {
                    _ = try session.decrypt(OlmEncryptedMessage(kind: kind, bytes: bytes))
                    XCTFail("random bytes decrypted")
                } catch {
                    reasons.insert(error.reason)
                    XCTAssertFalse(error.description.isEmpty)
                }
                XCTAssertEqual(session, alice)
            }
            XCTAssertThrowsError(try OlmSession.inbound(account: bobAccount, preKeyMessage: bytes))
            var bob = quietBob
            do {
                _ = try bob.decrypt(OlmEncryptedMessage(kind: .normal, bytes: bytes))
                XCTFail("random bytes decrypted")
            } catch {
                reasons.insert(error.reason)
            }
            XCTAssertEqual(bob, quietBob)
        }
        XCTAssertTrue(reasons.isSuperset(of: [.badFormat, .unknownVersion, .badMAC, .tooFarAhead, .sessionMismatch, .unexpectedRatchetKey]),
                      "\(reasons)")
    }

    func testDecodedFramingRoundTripsAndRejectsEveryTruncation() throws {
        var seeded = SeededRandom(seed: 54)
        for _ in 0 ..< 200 {
            let message = OlmMessage(ratchetKey: olmTestBytes(32, &seeded), counter: UInt32.random(in: 0 ... UInt32.max, using: &seeded),
                                     ciphertext: olmTestBytes(16 * Int.random(in: 1 ... 20, using: &seeded), &seeded))
            let bytes = message.bytesBeforeMAC + olmTestBytes(8, &seeded)
            let decoded = try OlmMessage.decode(bytes)
            XCTAssertEqual(decoded.message, message)
            XCTAssertEqual(Array(decoded.covered), message.bytesBeforeMAC)
            let preKey = OlmPreKeyMessage(oneTimeKey: olmTestBytes(32, &seeded), baseKey: olmTestBytes(32, &seeded),
                                          identityKey: olmTestBytes(32, &seeded), message: bytes)
            XCTAssertEqual(try OlmPreKeyMessage(decoding: preKey.encoded), preKey)
            for length in 0 ..< preKey.encoded.count {
                XCTAssertThrowsError(try OlmPreKeyMessage(decoding: Array(preKey.encoded.prefix(length))))
            }
        }
    }
}
