import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Our OlmSession against libolm's, fed the same random bytes: byte-equal messages, equal
/// session ids, and each side reads the other's messages, in order and out of it.
final class OlmSessionDifferentialTests: XCTestCase {
    /// Alice and Bob each as our account and libolm's twin made from the same bytes; Bob has
    /// one-time keys (and a fallback key) from the same bytes too.
    private struct Pair {
        var alice: OlmAccount, bob: OlmAccount
        let libolmAlice: LibolmAccount, libolmBob: LibolmAccount

        init(_ seeded: inout SeededRandom, oneTimeKeys: Int = 3) throws {
            let aliceRandom = olmTestBytes(64, &seeded), bobRandom = olmTestBytes(64, &seeded)
            var a = FixedRandom(aliceRandom), b = FixedRandom(bobRandom)
            alice = try OlmAccount(random: &a)
            bob = try OlmAccount(random: &b)
            libolmAlice = try LibolmAccount(random: aliceRandom)
            libolmBob = try LibolmAccount(random: bobRandom)
            let keysRandom = olmTestBytes(32 * oneTimeKeys, &seeded)
            var keys = FixedRandom(keysRandom)
            try bob.generateOneTimeKeys(oneTimeKeys, random: &keys)
            try libolmBob.generateOneTimeKeys(oneTimeKeys, random: keysRandom)
        }
    }

    func testOurOutboundPreKeyMessagesAreLibolmsByteForByteAndEachSideReadsTheOther() throws {
        var seeded = SeededRandom(seed: 41)
        for round in 0 ..< 25 {
            var pair = try Pair(&seeded)
            let oneTimeKey = try XCTUnwrap(pair.bob.unpublishedOneTimeKeys.randomElement(using: &seeded)).publicKey
            let sessionRandom = olmTestBytes(64, &seeded)
            var source = FixedRandom(sessionRandom)
            var ours = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key, theirOneTimeKey: oneTimeKey, random: &source)
            let theirs = try LibolmSession.outbound(account: pair.libolmAlice, theirIdentityKey: pair.bob.curve25519Key,
                                                    theirOneTimeKey: oneTimeKey, random: sessionRandom)
            XCTAssertEqual(ours.sessionID, theirs.sessionID, "round \(round)")
            for index in 0 ..< 3 {
                let plaintext = olmTestBytes(Int.random(in: 0 ... 300, using: &seeded), &seeded)
                XCTAssertEqual(ours.encryptRandomLength, 0)
                XCTAssertEqual(theirs.encryptRandomLength, 0)
                var none = FixedRandom([])
                let ourMessage = try ours.encrypt(plaintext, random: &none)
                let theirMessage = try theirs.encrypt(plaintext, random: [])
                XCTAssertEqual(ourMessage, theirMessage, "round \(round), message \(index)")
                XCTAssertEqual(ourMessage.kind, .preKey)
            }
            // libolm's Bob reads ours; our Bob reads libolm Alice's (the same bytes) without changing the account.
            var none = FixedRandom([])
            let first = try ours.encrypt(utf8("hello \(round)"), random: &none)
            let libolmBobSession = try LibolmSession.inbound(account: pair.libolmBob, message: first)
            XCTAssertEqual(try libolmBobSession.decrypt(first), utf8("hello \(round)"))
            let accountBefore = pair.bob
            let (ourBobSession, plaintext) = try OlmSession.inbound(account: pair.bob, theirIdentityKey: pair.alice.curve25519Key, preKeyMessage: first.bytes)
            XCTAssertEqual(plaintext, utf8("hello \(round)"))
            XCTAssertEqual(pair.bob, accountBefore, "making an inbound session changes nothing in the account")
            XCTAssertEqual(ourBobSession.sessionID, libolmBobSession.sessionID)
            XCTAssertEqual(ourBobSession.sessionID, ours.sessionID)
            XCTAssertTrue(pair.bob.removeOneTimeKey(usedBy: ourBobSession))
            try pair.libolmBob.removeOneTimeKeys(usedBy: libolmBobSession)
            XCTAssertEqual(pair.bob.oneTimeKeysJSON, try pair.libolmBob.oneTimeKeys)
            XCTAssertThrowsError(try OlmSession.inbound(account: pair.bob, preKeyMessage: first.bytes), "the key is used")
        }
    }

    func testLibolmOutboundToOurInboundAndTheFirstReplyEndsPreKeyMessages() throws {
        var seeded = SeededRandom(seed: 42)
        for round in 0 ..< 10 {
            let pair = try Pair(&seeded)
            let oneTimeKey = try XCTUnwrap(pair.bob.unpublishedOneTimeKeys.first).publicKey
            let alice = try LibolmSession.outbound(account: pair.libolmAlice, theirIdentityKey: pair.bob.curve25519Key,
                                                   theirOneTimeKey: oneTimeKey, random: olmTestBytes(64, &seeded))
            let first = try alice.encrypt(utf8("from libolm \(round)"), random: [])
            var (bob, plaintext) = try OlmSession.inbound(account: pair.bob, preKeyMessage: first.bytes)
            XCTAssertEqual(plaintext, utf8("from libolm \(round)"))
            XCTAssertEqual(bob.sessionID, alice.sessionID)
            XCTAssertTrue(bob.matches(preKeyMessage: first.bytes))
            XCTAssertTrue(bob.matches(preKeyMessage: first.bytes, theirIdentityKey: pair.alice.curve25519Key))
            XCTAssertFalse(bob.matches(preKeyMessage: first.bytes, theirIdentityKey: pair.bob.curve25519Key))
            let second = try alice.encrypt(utf8("again"), random: [])
            XCTAssertTrue(bob.matches(preKeyMessage: second.bytes), "pre-key messages until a reply belong to this session")
            XCTAssertEqual(try bob.decrypt(second), utf8("again"))
            XCTAssertEqual(bob.encryptRandomLength, 32)
            var source = FixedRandom(olmTestBytes(32, &seeded))
            let reply = try bob.encrypt(utf8("reply"), random: &source)
            XCTAssertEqual(reply.kind, .normal)
            XCTAssertEqual(try alice.decrypt(reply), utf8("reply"))
            let after = try alice.encrypt(utf8("after the reply"), random: olmTestBytes(alice.encryptRandomLength, &seeded))
            XCTAssertEqual(after.kind, .normal)
            XCTAssertEqual(try bob.decrypt(after), utf8("after the reply"))
        }
    }

    /// Two libolm-and-ours twins per side talk for many rounds; every message is byte-equal
    /// between the twins, messages arrive shuffled, and every receiver (ours and libolm's) gets
    /// the same outcome for every message.
    func testManyRoundsOutOfOrderAgreeWithLibolmMessageForMessage() throws {
        var seeded = SeededRandom(seed: 43)
        var totalDecrypted = 0, totalRefused = 0
        for conversation in 0 ..< 6 {
            let pair = try Pair(&seeded)
            let oneTimeKey = try XCTUnwrap(pair.bob.unpublishedOneTimeKeys.first).publicKey
            let sessionRandom = olmTestBytes(64, &seeded)
            var source = FixedRandom(sessionRandom)
            var ourAlice = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key, theirOneTimeKey: oneTimeKey, random: &source)
            let libolmAlice = try LibolmSession.outbound(account: pair.libolmAlice, theirIdentityKey: pair.bob.curve25519Key,
                                                         theirOneTimeKey: oneTimeKey, random: sessionRandom)
            var none = FixedRandom([])
            let opening = try ourAlice.encrypt(utf8("opening"), random: &none)
            XCTAssertEqual(opening, try libolmAlice.encrypt(utf8("opening"), random: []))
            var (ourBob, _) = try OlmSession.inbound(account: pair.bob, preKeyMessage: opening.bytes)
            let libolmBob = try LibolmSession.inbound(account: pair.libolmBob, message: opening)
            XCTAssertEqual(try libolmBob.decrypt(opening), utf8("opening"))

            var toBob: [(OlmEncryptedMessage, [UInt8])] = [], toAlice: [(OlmEncryptedMessage, [UInt8])] = []
            for step in 0 ..< 120 {
                let fromAlice = Bool.random(using: &seeded)
                let plaintext = olmTestBytes(Int.random(in: 0 ... 64, using: &seeded), &seeded)
                if fromAlice {
                    XCTAssertEqual(ourAlice.encryptRandomLength, libolmAlice.encryptRandomLength)
                    let random = olmTestBytes(ourAlice.encryptRandomLength, &seeded)
                    var bytes = FixedRandom(random)
                    let message = try ourAlice.encrypt(plaintext, random: &bytes)
                    XCTAssertEqual(message, try libolmAlice.encrypt(plaintext, random: random), "conversation \(conversation), step \(step)")
                    toBob.append((message, plaintext))
                } else {
                    XCTAssertEqual(ourBob.encryptRandomLength, libolmBob.encryptRandomLength)
                    let random = olmTestBytes(ourBob.encryptRandomLength, &seeded)
                    var bytes = FixedRandom(random)
                    let message = try ourBob.encrypt(plaintext, random: &bytes)
                    XCTAssertEqual(message, try libolmBob.encrypt(plaintext, random: random), "conversation \(conversation), step \(step)")
                    toAlice.append((message, plaintext))
                }
                // Deliver some pending messages, in any order.
                for _ in 0 ..< Int.random(in: 0 ... 2, using: &seeded) {
                    if !toBob.isEmpty, Bool.random(using: &seeded) {
                        let (message, plaintext) = toBob.remove(at: Int.random(in: 0 ..< toBob.count, using: &seeded))
                        let outcome = try deliver(message, plaintext, to: &ourBob, libolm: libolmBob)
                        if outcome { totalDecrypted += 1 } else { totalRefused += 1 }
                    } else if !toAlice.isEmpty {
                        let (message, plaintext) = toAlice.remove(at: Int.random(in: 0 ..< toAlice.count, using: &seeded))
                        let outcome = try deliver(message, plaintext, to: &ourAlice, libolm: libolmAlice)
                        if outcome { totalDecrypted += 1 } else { totalRefused += 1 }
                    }
                }
            }
            XCTAssertEqual(ourAlice.sessionID, libolmAlice.sessionID)
            XCTAssertEqual(ourBob.sessionID, libolmBob.sessionID)
            // A stored session reads back and carries on.
            // A stored session reads back and carries on; its keys are base64, not lists of numbers.
            let stored = try JSONEncoder().encode(ourBob)
            var restored = try JSONDecoder().decode(OlmSession.self, from: stored)
            XCTAssertEqual(restored, ourBob)
            let rootKey = try XCTUnwrap(try JSONValue(parsing: stored)["ratchet"]?["rootKey"]?.string)
            XCTAssertEqual(UnpaddedBase64.decode(rootKey)?.count, 32)
            let random = olmTestBytes(restored.encryptRandomLength, &seeded)
            var first = FixedRandom(random), second = FixedRandom(random)
            let afterStoring = try restored.encrypt(utf8("after storing"), random: &first)
            XCTAssertEqual(afterStoring, try ourBob.encrypt(utf8("after storing"), random: &second))
            XCTAssertEqual(try libolmAlice.decrypt(afterStoring), utf8("after storing"))
        }
        XCTAssertGreaterThan(totalDecrypted, 300, "most messages decrypt (refused: \(totalRefused))")
    }

    /// Delivers one message to both twins of a receiver: both decrypt it to `plaintext`, or both
    /// refuse it (our session then unchanged). Returns whether it decrypted.
    private func deliver(_ message: OlmEncryptedMessage, _ plaintext: [UInt8], to ours: inout OlmSession, libolm: LibolmSession) throws -> Bool {
        let before = ours
        let theirs = Result { try libolm.decrypt(message) }
        do {
            let decrypted = try ours.decrypt(message)
            XCTAssertEqual(decrypted, plaintext)
            XCTAssertEqual(try theirs.get(), plaintext, "libolm refused what we decrypted")
            return true
        } catch {
            XCTAssertThrowsError(try theirs.get(), "libolm decrypted what we refused: \(error)")
            XCTAssertEqual(ours, before, "a refused message changes nothing")
            return false
        }
    }

    func testSkippedKeysPastTheBoundGoOldestFirstAsInLibolm() throws {
        var seeded = SeededRandom(seed: 46)
        let pair = try Pair(&seeded)
        var source = FixedRandom(olmTestBytes(64, &seeded))
        var alice = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key,
                                            theirOneTimeKey: pair.bob.unpublishedOneTimeKeys[0].publicKey, random: &source)
        var none = FixedRandom([])
        let opening = try alice.encrypt(utf8("opening"), random: &none)
        var (bob, _) = try OlmSession.inbound(account: pair.bob, preKeyMessage: opening.bytes)
        let libolmBob = try LibolmSession.inbound(account: pair.libolmBob, message: opening)
        XCTAssertEqual(try libolmBob.decrypt(opening), utf8("opening"))
        var messages: [(OlmEncryptedMessage, [UInt8])] = []
        for index in 1 ... 100 {
            let plaintext = utf8("message \(index)")
            messages.append((try alice.encrypt(plaintext, random: &none), plaintext))
        }
        // Skip 30, then 30 more, then 25 more: 85 skipped, of which only the newest 40 stay.
        for index in [30, 61, 87] { XCTAssertTrue(try deliver(messages[index].0, messages[index].1, to: &bob, libolm: libolmBob)) }
        XCTAssertEqual(bob.ratchet.skippedMessageKeys.count, OlmRatchet.maxSkippedMessageKeys)
        var outcomes: [Bool] = []
        for index in 0 ..< 87 where ![30, 61].contains(index) {
            outcomes.append(try deliver(messages[index].0, messages[index].1, to: &bob, libolm: libolmBob))
        }
        XCTAssertEqual(outcomes.filter { $0 }.count, 40)
        XCTAssertEqual(outcomes.suffix(40), Array(repeating: true, count: 40), "the newest skipped keys are the ones kept")
    }

    func testMatchingAPreKeyMessageAgreesWithLibolmAndAnotherSessionsIsRefused() throws {
        var seeded = SeededRandom(seed: 47)
        let pair = try Pair(&seeded)
        var source = FixedRandom(olmTestBytes(64 * 2, &seeded))
        var first = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key,
                                            theirOneTimeKey: pair.bob.unpublishedOneTimeKeys[0].publicKey, random: &source)
        var second = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key,
                                             theirOneTimeKey: pair.bob.unpublishedOneTimeKeys[1].publicKey, random: &source)
        var none = FixedRandom([])
        let fromFirst = try first.encrypt(utf8("first"), random: &none), fromSecond = try second.encrypt(utf8("second"), random: &none)
        var (bob, _) = try OlmSession.inbound(account: pair.bob, preKeyMessage: fromFirst.bytes)
        let libolmBob = try LibolmSession.inbound(account: pair.libolmBob, message: fromFirst)
        for message in [fromFirst, fromSecond] {
            XCTAssertEqual(bob.matches(preKeyMessage: message.bytes), libolmBob.matches(message))
        }
        XCTAssertFalse(bob.matches(preKeyMessage: fromSecond.bytes))
        XCTAssertThrowsError(try bob.decrypt(fromSecond)) { XCTAssertEqual(($0 as? OlmDecryptionError)?.reason, .sessionMismatch) }
        XCTAssertEqual(try OlmSession.inbound(account: pair.bob, preKeyMessage: fromSecond.bytes).plaintext, utf8("second"))
    }

    /// X25519 ignores a public key's top bit (RFC 7748, 5): a pre-key message whose base or
    /// identity key has it flipped still agrees on the secret. libolm and we both take it, as a
    /// session of another id; the identity key's flip is caught by the sender's known key.
    func testATopBitFlippedKeyInAPreKeyMessageIsTakenAsByLibolm() throws {
        var seeded = SeededRandom(seed: 48)
        for offset in [68, 102] {  // the last byte of the base key, of the identity key
            let pair = try Pair(&seeded)
            var source = FixedRandom(olmTestBytes(64, &seeded))
            var alice = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key,
                                                theirOneTimeKey: pair.bob.unpublishedOneTimeKeys[0].publicKey, random: &source)
            var none = FixedRandom([])
            var bytes = try alice.encrypt(utf8("flipped"), random: &none).bytes
            bytes[offset] ^= 0x80
            let flipped = OlmEncryptedMessage(kind: .preKey, bytes: bytes)
            let (ours, plaintext) = try OlmSession.inbound(account: pair.bob, preKeyMessage: bytes)
            let theirs = try LibolmSession.inbound(account: pair.libolmBob, message: flipped)
            XCTAssertEqual(plaintext, utf8("flipped"))
            XCTAssertEqual(try theirs.decrypt(flipped), utf8("flipped"))
            XCTAssertEqual(ours.sessionID, theirs.sessionID)
            XCTAssertNotEqual(ours.sessionID, alice.sessionID)
            XCTAssertEqual(offset == 102, (try? OlmSession.inbound(account: pair.bob, theirIdentityKey: pair.alice.curve25519Key,
                                                                   preKeyMessage: bytes)) == nil)
        }
    }

    func testAReplayedMessageIsRefusedAsAlreadyUsed() throws {
        var seeded = SeededRandom(seed: 44)
        let pair = try Pair(&seeded)
        var source = FixedRandom(olmTestBytes(64 + 32, &seeded))
        var alice = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key,
                                            theirOneTimeKey: pair.bob.unpublishedOneTimeKeys[0].publicKey, random: &source)
        let first = try alice.encrypt(utf8("one"), random: &source)
        var (bob, _) = try OlmSession.inbound(account: pair.bob, preKeyMessage: first.bytes)
        let reply = try bob.encrypt(utf8("two"), random: &source)
        XCTAssertEqual(try alice.decrypt(reply), utf8("two"))
        XCTAssertThrowsError(try alice.decrypt(reply)) { XCTAssertEqual(($0 as? OlmDecryptionError)?.reason, .duplicateOrTooOld) }
        XCTAssertThrowsError(try bob.decrypt(first)) { XCTAssertEqual(($0 as? OlmDecryptionError)?.reason, .duplicateOrTooOld) }
    }

    func testAMessageTooFarAheadIsRefusedAndSkippedKeysStayBounded() throws {
        var seeded = SeededRandom(seed: 45)
        let pair = try Pair(&seeded)
        var source = FixedRandom(olmTestBytes(64, &seeded))
        var alice = try OlmSession.outbound(account: pair.alice, theirIdentityKey: pair.bob.curve25519Key,
                                            theirOneTimeKey: pair.bob.unpublishedOneTimeKeys[0].publicKey, random: &source)
        var none = FixedRandom([])
        let first = try alice.encrypt(utf8("0"), random: &none)
        var (bob, _) = try OlmSession.inbound(account: pair.bob, preKeyMessage: first.bytes)
        var messages: [OlmEncryptedMessage] = []
        for index in 1 ... 2002 { messages.append(try alice.encrypt(utf8("\(index)"), random: &none)) }
        XCTAssertThrowsError(try bob.decrypt(messages[2001])) { XCTAssertEqual(($0 as? OlmDecryptionError)?.reason, .tooFarAhead) }
        XCTAssertEqual(try bob.decrypt(messages[1999]), utf8("2000"), "2000 messages ahead is still within reach")
        XCTAssertEqual(bob.ratchet.skippedMessageKeys.count, OlmRatchet.maxSkippedMessageKeys)
        XCTAssertEqual(try bob.decrypt(messages[1998]), utf8("1999"), "the newest skipped keys are kept")
        XCTAssertThrowsError(try bob.decrypt(messages[10])) { XCTAssertEqual(($0 as? OlmDecryptionError)?.reason, .duplicateOrTooOld) }
    }
}
