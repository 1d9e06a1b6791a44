import COlm
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Megolm against libolm fed the same random bytes: the same session keys, the same message
/// bytes at every index, each decrypting the other's messages, the same exports.
final class MegolmOracleTests: XCTestCase {
    private func randomBytes(_ count: Int, _ seeded: inout SeededRandom) -> [UInt8] {
        (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) }
    }

    /// Our session and libolm's, from the same 160 bytes.
    private func sessionPair(_ seeded: inout SeededRandom) throws -> (MegolmOutboundSession, LibolmOutboundGroupSession) {
        let random = randomBytes(MegolmOutboundSession.randomByteCount, &seeded)
        var source = FixedRandom(random)
        return (try MegolmOutboundSession(random: &source, createdAtMilliseconds: 0), try LibolmOutboundGroupSession(random: random))
    }

    func testSessionKeysAndMessagesAreByteEqualToLibolmsUpToIndex1000() throws {
        var seeded = SeededRandom(seed: 33)
        let pair = try sessionPair(&seeded)
        var ours = pair.0
        let theirs = pair.1
        XCTAssertEqual(ours.sessionID, theirs.sessionID)
        for index in 0 ... 1000 as ClosedRange<UInt32> {
            if [0, 1, 255, 256, 1000].contains(index) {
                XCTAssertEqual(try ours.sessionKey().base64, try theirs.sessionKey(), "session key at \(index)")
            }
            let plaintext = randomBytes(seeded.below(70), &seeded)
            XCTAssertEqual(ours.messageIndex, index)
            XCTAssertEqual(try ours.encrypt(plaintext).base64, try theirs.encrypt(plaintext), "message at \(index)")
            XCTAssertEqual(theirs.messageIndex, index + 1)
        }
        XCTAssertEqual(ours.messagesSent, 1001)
    }

    func testManySessionsMatchLibolmAndDecryptEachOthersMessagesBothWays() throws {
        var seeded = SeededRandom(seed: 34)
        for _ in 0 ..< 25 {
            let pair = try sessionPair(&seeded)
        var ours = pair.0
        let theirs = pair.1
            let key = try ours.sessionKey().base64
            var ourInbound = try MegolmInboundSession(sessionKey: key)
            let theirInbound = try LibolmInboundGroupSession(key: key)
            XCTAssertEqual(ourInbound.sessionID, ours.sessionID)
            var sent: [(String, [UInt8])] = []
            for _ in 0 ..< 1 + seeded.below(8) {
                // Lengths around AES's 16-byte blocks, the empty one included.
                let plaintext = randomBytes(seeded.pick([0, 1, 15, 16, 17, 31, 32, 33, 200]), &seeded)
                let message = try ours.encrypt(plaintext).base64
                XCTAssertEqual(message, try theirs.encrypt(plaintext))
                sent.append((message, plaintext))
            }
            // Out of order and twice: later first, then the earlier ones from the initial ratchet.
            for (message, plaintext) in sent.reversed() + sent {
                let mine = try ourInbound.decrypt(base64: message)
                let libolms = try theirInbound.decrypt(message)
                XCTAssertEqual(mine.plaintext, plaintext)
                XCTAssertEqual(libolms.plaintext, plaintext)
                XCTAssertEqual(mine.messageIndex, libolms.index)
            }
        }
    }

    func testLibolmsMessagesDecryptWithOursAndOursWithLibolmsAtHighIndices() throws {
        var seeded = SeededRandom(seed: 35)
        let pair = try sessionPair(&seeded)
        var ours = pair.0
        let theirs = pair.1
        let keyAtZero = try ours.sessionKey().base64
        var ourInbound = try MegolmInboundSession(sessionKey: keyAtZero)
        let theirInbound = try LibolmInboundGroupSession(key: keyAtZero)
        for target in [1, 255, 256, 1000, 65_536, 1 << 24, (1 << 24) + 1] as [UInt32] {
            var ratchet = ours.ratchet
            try ratchet.advance(to: target)
            ours = MegolmOutboundSession(ratchet: ratchet, signing: ours.signing, createdAtMilliseconds: 0)
            try theirs.replaceRatchet(with: ratchet)
            XCTAssertEqual(try ours.sessionKey().base64, try theirs.sessionKey(), "session key at \(target)")
            let plaintext = Array("at index \(target)".utf8)
            let mine = try ours.encrypt(plaintext).base64
            let libolms = try theirs.encrypt(plaintext)
            XCTAssertEqual(mine, libolms, "message at \(target)")
            XCTAssertEqual(try ourInbound.decrypt(base64: libolms).plaintext, plaintext)
            XCTAssertEqual(try theirInbound.decrypt(mine).plaintext, plaintext)
            XCTAssertEqual(try theirInbound.decrypt(mine).index, target)
        }
    }

    func testExportsAtAnyIndexMatchLibolmsAndImportBothWays() throws {
        var seeded = SeededRandom(seed: 36)
        var ours = try sessionPair(&seeded).0
        _ = try ours.encrypt([1, 2, 3])
        let key = try ours.sessionKey().base64  // from index 1
        let ourInbound = try MegolmInboundSession(sessionKey: key)
        let theirInbound = try LibolmInboundGroupSession(key: key)
        XCTAssertEqual(ourInbound.firstKnownIndex, 1)
        XCTAssertEqual(theirInbound.firstKnownIndex, 1)
        var messages: [UInt32: String] = [:]
        for _ in 0 ..< 300 { messages[ours.messageIndex] = try ours.encrypt(Array("m\(ours.messageIndex)".utf8)).base64 }
        for index in [1, 2, 255, 256, 299, 1000, 1 << 24, (1 << 24) + 1] as [UInt32] {
            let mine = try ourInbound.export(at: index).base64
            XCTAssertEqual(mine, try theirInbound.export(at: index), "export at \(index)")
            let ourImport = try MegolmInboundSession(exportedKey: try theirInbound.export(at: index))
            let theirImport = try LibolmInboundGroupSession(key: mine, imported: true)
            XCTAssertEqual(ourImport.firstKnownIndex, index)
            XCTAssertEqual(theirImport.firstKnownIndex, index)
            XCTAssertEqual(ourImport.sessionID, ours.sessionID)
            for messageIndex in [index &- 1, index, index + 1] {
                guard let message = messages[messageIndex] else { continue }
                var copy = ourImport
                let libolms = Result { try theirImport.decrypt(message).plaintext }
                let mine = Result { try copy.decrypt(base64: message).plaintext }
                if messageIndex < index {
                    XCTAssertEqual(libolms.megolmTestError as? LibolmGroupError, LibolmGroupError(name: "UNKNOWN_MESSAGE_INDEX"))
                    XCTAssertEqual((mine.megolmTestError as? MegolmFailure)?.reason, .unknownMessageIndex)
                } else {
                    XCTAssertEqual(try mine.get(), Array("m\(messageIndex)".utf8))
                    XCTAssertEqual(try libolms.get(), try mine.get())
                }
            }
        }
        XCTAssertEqual((Result { try ourInbound.export(at: 0) }.megolmTestError as? MegolmFailure)?.reason, .unknownMessageIndex)
        XCTAssertThrowsError(try theirInbound.export(at: 0))
    }

    func testForgedSignaturesAndMACsAreRefusedAsLibolmRefusesThem() throws {
        var seeded = SeededRandom(seed: 37)
        var ours = try sessionPair(&seeded).0
        let key = try ours.sessionKey()
        var ourInbound = MegolmInboundSession(sessionKey: key)
        let theirInbound = try LibolmInboundGroupSession(key: key.base64)
        let message = try ours.encrypt(Array("hello".utf8))

        // A changed MAC byte: the signature covers the MAC, so the signature fails first.
        var bytes = message.bytes
        bytes[bytes.count - 65] ^= 1
        try expectBoth(refuse: UnpaddedBase64.encode(bytes), ours: .badSignature, libolm: "BAD_SIGNATURE", &ourInbound, theirInbound)

        // A wrong MAC signed again by the session's own key: the MAC check is what refuses it.
        var unsigned = Array(message.signedBytes)
        unsigned[unsigned.count - 1] ^= 1
        let resigned = unsigned + (try ours.signing.sign(unsigned))
        try expectBoth(refuse: UnpaddedBase64.encode(resigned), ours: .badMAC, libolm: "BAD_MESSAGE_MAC", &ourInbound, theirInbound)

        // A session key whose signature does not check.
        var keyBytes = key.bytes
        keyBytes[10] ^= 1
        XCTAssertEqual((Result { try MegolmSessionKey(bytes: keyBytes) }.megolmTestError as? MegolmFailure)?.reason, .badSignature)
        XCTAssertEqual(Result { try LibolmInboundGroupSession(key: UnpaddedBase64.encode(keyBytes)) }.megolmTestError as? LibolmGroupError,
                       LibolmGroupError(name: "BAD_SIGNATURE"))
        // The genuine message still decrypts after all that.
        XCTAssertEqual(try ourInbound.decrypt(message).plaintext, Array("hello".utf8))
    }

    private func expectBoth(refuse message: String, ours reason: MegolmFailure.Reason, libolm name: String,
                            _ ourInbound: inout MegolmInboundSession, _ theirInbound: LibolmInboundGroupSession,
                            line: UInt = #line) throws {
        XCTAssertEqual((Result { try ourInbound.decrypt(base64: message) }.megolmTestError as? MegolmFailure)?.reason, reason, line: line)
        XCTAssertEqual(Result { try theirInbound.decrypt(message) }.megolmTestError as? LibolmGroupError, LibolmGroupError(name: name), line: line)
    }
}

extension Result {
    /// The error, when this is one.
    var megolmTestError: Failure? { if case .failure(let error) = self { error } else { nil } }
}
