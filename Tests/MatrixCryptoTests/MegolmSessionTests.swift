import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Sessions' state kept and restored, the replay guard, the rotation policy and the errors' words.
final class MegolmSessionTests: XCTestCase {
    private func outbound(seed: UInt64, createdAt: Int64 = 0) throws -> MegolmOutboundSession {
        var seeded = SeededRandom(seed: seed)
        var source = FixedRandom((0 ..< 160).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) })
        return try MegolmOutboundSession(random: &source, createdAtMilliseconds: createdAt)
    }

    func testSessionsRestoredFromTheirCodableStateCarryOnAsBefore() throws {
        var sender = try outbound(seed: 50, createdAt: 1_700_000_000_000)
        var receiver = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        _ = try receiver.decrypt(sender.encrypt(Array("one".utf8)))
        let (encoder, decoder) = (JSONEncoder(), JSONDecoder())
        var restoredSender = try decoder.decode(MegolmOutboundSession.self, from: encoder.encode(sender))
        var restoredReceiver = try decoder.decode(MegolmInboundSession.self, from: encoder.encode(receiver))
        XCTAssertEqual(restoredReceiver, receiver)
        XCTAssertEqual(restoredSender.createdAtMilliseconds, 1_700_000_000_000)
        XCTAssertEqual(try restoredSender.sessionKey(), try sender.sessionKey())
        let message = try restoredSender.encrypt(Array("two".utf8))
        XCTAssertEqual(message, try sender.encrypt(Array("two".utf8)))
        XCTAssertEqual(try restoredReceiver.decrypt(message).plaintext, Array("two".utf8))
        XCTAssertEqual(restoredReceiver.firstKnownIndex, 0)
    }

    func testStoredStateThatDoesNotHoldTogetherIsRefused() throws {
        let sender = try outbound(seed: 51)
        var receiver = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        var copy = sender
        _ = try receiver.decrypt(copy.encrypt([1]))
        _ = try receiver.decrypt(copy.encrypt([2]))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(receiver)) as? [String: Any])
        // The latest ratchet before the initial one, then a key of the wrong length.
        let latest = object["latestRatchet"]
        object["latestRatchet"] = object["initialRatchet"]
        object["initialRatchet"] = latest
        XCTAssertThrowsError(try JSONDecoder().decode(MegolmInboundSession.self, from: JSONSerialization.data(withJSONObject: object)))
        object["initialRatchet"] = object["latestRatchet"]
        object["signingKey"] = "AAAA"
        XCTAssertThrowsError(try JSONDecoder().decode(MegolmInboundSession.self, from: JSONSerialization.data(withJSONObject: object)))
    }

    func testDecryptingOutOfOrderAndBeforeTheFirstKnownIndex() throws {
        var sender = try outbound(seed: 52)
        let first = try sender.encrypt(Array("zero".utf8))
        var receiver = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        let messages = try (1 ... 6).map { try sender.encrypt(Array("m\($0)".utf8)) }
        for index in [5, 2, 6, 1, 5] { XCTAssertEqual(try receiver.decrypt(messages[index - 1]).plaintext, Array("m\(index)".utf8)) }
        // The latest ratchet follows the messages that decrypted, so the next in order is one step.
        XCTAssertEqual(receiver.latestRatchet.index, 6)
        XCTAssertEqual(receiver.initialRatchet.index, 1)
        // A later message whose MAC does not check (signed all the same) leaves it where it was.
        var later = try sender.encrypt(Array("m7".utf8)).signedBytes
        later[later.count - 1] ^= 1
        XCTAssertEqual((Result { try receiver.decrypt(MegolmMessage(bytes: later + sender.signing.sign(later))) }
            .megolmTestError as? MegolmFailure)?.reason, .badMAC)
        XCTAssertEqual(receiver.latestRatchet.index, 6)
        let refusal = try XCTUnwrap(Result { try receiver.decrypt(first) }.megolmTestError as? MegolmFailure)
        XCTAssertEqual(refusal.reason, .unknownMessageIndex)
        XCTAssertEqual(refusal.description, "unknown message index (index 0 is before the first known index 1)")
    }

    func testAnotherSessionsMessageIsRefusedByItsSignature() throws {
        var one = try outbound(seed: 53)
        let two = try outbound(seed: 54)
        var receiver = try MegolmInboundSession(sessionKey: two.sessionKey().base64)
        let refusal = try XCTUnwrap(Result { try receiver.decrypt(one.encrypt([1])) }.megolmTestError as? MegolmFailure)
        XCTAssertEqual(refusal.reason, .badSignature)
        XCTAssertEqual(refusal.description, "bad signature (the message is not signed by its session)")
    }

    func testReplayGuardAcceptsTheSameEventAgainAndFlagsAnotherAtTheSameIndex() {
        var guardian = MegolmReplayGuard()
        XCTAssertEqual(guardian.check(sessionID: "S", messageIndex: 3, eventID: "$a"), .first)
        XCTAssertEqual(guardian.check(sessionID: "S", messageIndex: 3, eventID: "$a"), .seenBefore)
        XCTAssertEqual(guardian.check(sessionID: "S", messageIndex: 3, eventID: "$b"), .replay(ofEventID: "$a"))
        XCTAssertEqual(guardian.check(sessionID: "S", messageIndex: 4, eventID: "$b"), .first)
        XCTAssertEqual(guardian.check(sessionID: "T", messageIndex: 3, eventID: "$c"), .first)
        XCTAssertEqual(guardian.count, 3)
        let restored = try? JSONDecoder().decode(MegolmReplayGuard.self, from: JSONEncoder().encode(guardian))
        XCTAssertEqual(restored, guardian)
        var again = restored ?? MegolmReplayGuard()
        XCTAssertEqual(again.check(sessionID: "S", messageIndex: 3, eventID: "$z"), .replay(ofEventID: "$a"))
    }

    func testRotationPolicyFollowsTheRoomWithinBounds() throws {
        let hour: Int64 = 3_600_000, week = 7 * 24 * hour
        let defaults = MegolmRotationPolicy(roomEncryption: .object(["algorithm": .string("m.megolm.v1.aes-sha2")]))
        XCTAssertEqual(defaults, MegolmRotationPolicy(periodMilliseconds: week, periodMessages: 100))
        XCTAssertFalse(defaults.shouldRotate(messagesSent: 99, ageMilliseconds: week - 1))
        XCTAssertTrue(defaults.shouldRotate(messagesSent: 100, ageMilliseconds: 0))
        XCTAssertTrue(defaults.shouldRotate(messagesSent: 0, ageMilliseconds: week))
        XCTAssertTrue(defaults.shouldRotate(messagesSent: 0, ageMilliseconds: -1), "a clock gone back is not trusted")

        let room = MegolmRotationPolicy(roomEncryption: .object(["rotation_period_ms": .number(2 * Double(hour)),
                                                                "rotation_period_msgs": .number(10)]))
        XCTAssertEqual(room, MegolmRotationPolicy(periodMilliseconds: 2 * hour, periodMessages: 10))
        // A hostile room: no key per message, no key every millisecond, none kept for ever.
        let hostile = MegolmRotationPolicy(roomEncryption: .object(["rotation_period_ms": .number(1), "rotation_period_msgs": .number(0)]))
        XCTAssertEqual(hostile, MegolmRotationPolicy(periodMilliseconds: hour, periodMessages: 1))
        XCTAssertEqual(MegolmRotationPolicy(periodMessages: 1_000_000).periodMessages, 10_000)
        XCTAssertEqual(MegolmRotationPolicy(roomEncryption: .object(["rotation_period_msgs": .string("5")])).periodMessages, 100)

        var session = try outbound(seed: 55, createdAt: 1_000)
        let policy = MegolmRotationPolicy(periodMilliseconds: hour, periodMessages: 2)
        XCTAssertFalse(policy.shouldRotate(session, nowMilliseconds: 1_000 + hour - 1))
        XCTAssertTrue(policy.shouldRotate(session, nowMilliseconds: 1_000 + hour))
        _ = try session.encrypt([1])
        _ = try session.encrypt([2])
        XCTAssertTrue(policy.shouldRotate(session, nowMilliseconds: 1_000))
        XCTAssertTrue(policy.shouldRotate(session, nowMilliseconds: .min), "an age past Int64's range rotates")
    }

    func testErrorsNameTheProblemWithoutKeyBytes() throws {
        let sender = try outbound(seed: 56)
        let key = try sender.sessionKey()
        for text in [String(key.base64.dropLast(4)), "not base64!", UnpaddedBase64.encode([9] + key.bytes.dropFirst())] {
            let refusal = try XCTUnwrap(Result { try MegolmSessionKey(base64: text) }.megolmTestError as? MegolmFailure)
            XCTAssertEqual(refusal.reason, .badFormat)
            XCTAssertFalse(refusal.description.contains(String(key.base64.prefix(12))))
        }
        XCTAssertEqual((Result { try MegolmExportedSessionKey(base64: key.base64) }.megolmTestError as? MegolmFailure)?.description,
                       "bad format (a Megolm exported key is 165 bytes, not 229)")
    }

    func testPrintingOrDumpingSessionsAndKeysShowsNoSecretBytes() throws {
        var sender = try outbound(seed: 57)
        _ = try sender.encrypt([1])
        let key = try sender.sessionKey()
        let receiver = MegolmInboundSession(sessionKey: key)
        let secrets = [UnpaddedBase64.encode(Array(sender.ratchet.bytes.prefix(24))), UnpaddedBase64.encode(Array(sender.signing.seed.prefix(24)))]
        let printed: [Any] = [sender, receiver, key, try receiver.export(at: 1), sender.ratchet, [sender.ratchet]]
        for value in printed {
            var dumped = ""
            dump(value, to: &dumped)
            let texts = ["\(value)", String(reflecting: value), dumped]
            for text in texts {
                for secret in secrets { XCTAssertFalse(text.contains(secret), text) }
                // Bytes printed as numbers would show as a long list.
                XCTAssertFalse(text.contains("[\(sender.ratchet.bytes[0]), \(sender.ratchet.bytes[1])"), text)
                XCTAssertFalse(text.contains("bytes"), text)
            }
        }
        XCTAssertEqual("\(sender)", "MegolmOutboundSession(\(sender.sessionID), index 1)")
        XCTAssertEqual("\(receiver)", "MegolmInboundSession(\(sender.sessionID), from index 1)")
    }

    func testAnotherCopyOfASessionReplacesOursOnlyWhenItIsTheSameSessionFromEarlier() throws {
        var sender = try outbound(seed: 58)
        let fromZero = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        for _ in 0 ..< 300 { _ = try sender.encrypt([0]) }
        let fromLater = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        XCTAssertEqual(fromLater.compare(fromZero), .better)
        XCTAssertEqual(fromZero.compare(fromLater), .worse)
        XCTAssertEqual(fromZero.compare(try MegolmInboundSession(exportedKey: fromZero.export(at: 0).base64)), .equal)
        // The session's id (its public key) with a ratchet of someone's making: it leads nowhere.
        let forged = MegolmInboundSession(exportedKey: MegolmExportedSessionKey(
            ratchet: try MegolmRatchet(bytes: [UInt8](repeating: 1, count: 128), index: 0), signingKey: fromZero.signingKey))
        XCTAssertEqual(fromLater.compare(forged), .unconnected)
        XCTAssertEqual(fromZero.compare(forged), .unconnected)
        XCTAssertEqual(fromZero.compare(try MegolmInboundSession(sessionKey: outbound(seed: 59).sessionKey().base64)), .unconnected)
    }

    /// A forged forwarded key (the victim session's id, a random ratchet) that arrives before the
    /// sender's signed `m.room_key` must not shut it out: the signed key replaces it.
    func testASignedKeyReplacesAForgedForwardedKeyThatArrivedFirst() throws {
        var sender = try outbound(seed: 60)
        let genuine = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        let message = try sender.encrypt(Array("hello".utf8))
        let forged = MegolmInboundSession(exportedKey: MegolmExportedSessionKey(
            ratchet: try MegolmRatchet(bytes: [UInt8](repeating: 7, count: 128), index: 0), signingKey: genuine.signingKey))
        XCTAssertTrue(genuine.isSigned)
        XCTAssertFalse(forged.isSigned)
        XCTAssertEqual(forged.compare(genuine), .better, "the signed key replaces the unsigned copy")
        XCTAssertEqual(genuine.compare(forged), .unconnected, "a forgery never replaces the signed key")
        var kept = forged.merging(genuine)
        XCTAssertEqual(try kept.decrypt(message).plaintext, Array("hello".utf8))
        XCTAssertEqual(genuine.merging(forged), genuine)

        // A genuine forward from an earlier index stays, and counts as signed once a signed key
        // it leads to arrives; at the same index the signed copy wins.
        for _ in 0 ..< 5 { _ = try sender.encrypt([0]) }
        let later = try MegolmInboundSession(sessionKey: sender.sessionKey().base64)
        let forwarded = try MegolmInboundSession(exportedKey: genuine.export(at: 0))
        XCTAssertEqual(forwarded.compare(later), .worse)
        let merged = forwarded.merging(later)
        XCTAssertEqual(merged.firstKnownIndex, 0)
        XCTAssertTrue(merged.isSigned)
        XCTAssertEqual(forwarded.compare(genuine), .better)
        XCTAssertEqual(genuine.compare(forwarded), .equal)
        let restored = try JSONDecoder().decode(MegolmInboundSession.self, from: JSONEncoder().encode(merged))
        XCTAssertTrue(restored.isSigned, "stored with the session")
    }
}
