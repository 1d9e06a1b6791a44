import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Element's key export file (`MegolmKeyExport`): sealed and opened again, its layout as the
/// format says, and every way a file can be wrong refused in words (matrix-nio, the oracle, is
/// in CommentTUITests' `KeyExportOracleTests`).
final class MegolmKeyExportTests: XCTestCase {
    private let rounds = 1000

    /// Two sessions' keys, one exported from a later index.
    private func sampleKeys(seed: UInt64 = 1) throws -> (keys: [ExportedRoomKey], senders: [MegolmOutboundSession]) {
        var random = SeededBytes(seed: seed)
        var first = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        _ = try first.encrypt(Array("before the export".utf8))
        let second = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        let keys = try [first, second].enumerated().map { index, sender in
            ExportedRoomKey(roomID: "!room\(index):example.org", senderKey: "curve\(index)",
                            sessionKey: try MegolmInboundSession(sessionKey: sender.sessionKey()).export(at: sender.messageIndex),
                            claimedSigningKey: index == 0 ? "ed25519-of-sender" : nil, forwardingChain: index == 0 ? [] : ["via"])
        }
        return (keys, [first, second])
    }

    func testSealedKeysOpenWithThePassphraseAndStillDecrypt() throws {
        var (keys, senders) = try sampleKeys()
        var random = SeededBytes(seed: 2)
        let text = try MegolmKeyExport.seal(keys: keys, passphrase: "correct horse ☃", rounds: rounds, random: &random)
        XCTAssertTrue(text.hasPrefix(MegolmKeyExport.header + "\n") && text.hasSuffix(MegolmKeyExport.footer + "\n"), text)
        XCTAssertTrue(text.split(separator: "\n").allSatisfy { $0.count <= 96 }, "wrapped at 96 as Element does")
        let opened = try MegolmKeyExport.openKeys(text, passphrase: "correct horse ☃")
        XCTAssertEqual(opened.keys, keys)
        XCTAssertEqual(opened.skipped, 0)
        for (key, index) in zip(opened.keys, senders.indices) {
            let message = try senders[index].encrypt(Array("after \(index)".utf8))
            var session = MegolmInboundSession(exportedKey: key.sessionKey)
            XCTAssertEqual(try session.decrypt(message).plaintext, Array("after \(index)".utf8))
            XCTAssertFalse(session.isSigned, "an imported key proves nothing about its sender")
        }
        // CRLF line ends, unpadded and unwrapped data, text around the block: all read.
        let crlf = "exported by hand\r\n" + text.replacingOccurrences(of: "\n", with: "\r\n") + "trailing words\r\n"
        XCTAssertEqual(try MegolmKeyExport.openKeys(crlf, passphrase: "correct horse ☃").keys, keys)
    }

    func testLayoutIsVersionSaltIVWithBit63ClearRoundsCiphertextAndMAC() throws {
        for seed in UInt64(0) ..< 40 {
            var random = SeededBytes(seed: seed)
            let plaintext = Array("[]".utf8)
            let text = try MegolmKeyExport.seal(plaintext, passphrase: "p", rounds: 1234, random: &random)
            let data = try MegolmKeyExport.armoredData(text)
            XCTAssertEqual(data.count, 1 + 16 + 16 + 4 + plaintext.count + 32)
            XCTAssertEqual(data[0], 1)
            XCTAssertEqual(data[17 + 8] & 0x80, 0, "bit 63 of the IV is clear")
            XCTAssertEqual(Array(data[33 ..< 37]), [0, 0, 0x04, 0xD2])
            var replay = SeededBytes(seed: seed)
            let salt = try replay.bytes(16)
            XCTAssertEqual(Array(data[1 ..< 17]), salt)
            let derived = try KeyDerivation.pbkdf2SHA512(password: Array("p".utf8), salt: salt, iterations: 1234, length: 64)
            XCTAssertEqual(Array(data.suffix(32)), try Digest.hmacSHA256(key: Array(derived[32...]), data: Array(data.dropLast(32))))
            XCTAssertEqual(try AES256.ctr(key: Array(derived[..<32]), iv: Array(data[17 ..< 33]), data: Array(data[37 ..< 39])), plaintext)
        }
    }

    func testWrongPassphraseTruncationAndTamperingAreRefusedInWords() throws {
        let (keys, _) = try sampleKeys()
        var random = SeededBytes(seed: 3)
        let text = try MegolmKeyExport.seal(keys: keys, passphrase: "right", rounds: rounds, random: &random)
        func refusal(_ text: String, _ passphrase: String = "right") -> KeyExportRefusal? {
            do {
                _ = try MegolmKeyExport.openKeys(text, passphrase: passphrase)
                return nil
            } catch {
                return error as? KeyExportRefusal
            }
        }
        XCTAssertEqual(refusal(text, "wrong"), .wrongPassphraseOrChanged)
        XCTAssertEqual(refusal(text, "right "), .wrongPassphraseOrChanged)
        XCTAssertEqual(refusal(String(text.prefix(text.count / 2))), .truncated)
        XCTAssertEqual(refusal("hello\n"), .notAKeyFile)
        XCTAssertEqual(refusal(MegolmKeyExport.header + "\n!!!!\n" + MegolmKeyExport.footer), .notBase64)
        XCTAssertEqual(refusal(MegolmKeyExport.header + "\nAQID\n" + MegolmKeyExport.footer), .truncated)

        var data = try MegolmKeyExport.armoredData(text)
        func armored(_ data: [UInt8]) -> String { MegolmKeyExport.header + "\n" + UnpaddedBase64.encode(data) + "\n" + MegolmKeyExport.footer }
        XCTAssertNotNil(try? MegolmKeyExport.openKeys(armored(data), passphrase: "right"), "re-armoured unchanged, it opens")
        for position in [data.count - 1, data.count - 32, 40, 1, 20] {
            var tampered = data
            tampered[position] ^= 0x01
            XCTAssertEqual(refusal(armored(tampered)), .wrongPassphraseOrChanged, "byte \(position) changed")
        }
        XCTAssertEqual(refusal(armored(Array(data.dropLast()))), .wrongPassphraseOrChanged, "a MAC byte cut off")
        data[0] = 2
        XCTAssertEqual(refusal(armored(data))?.reason, "the key file is of format version 2, which this client cannot read (it reads version 1)")
        data[0] = 1
        data.replaceSubrange(33 ..< 37, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertTrue(refusal(armored(data))?.reason.contains("4294967295 key derivation rounds") == true, "refused before any round is run")
        data.replaceSubrange(33 ..< 37, with: [0, 0, 0, 0])
        XCTAssertTrue(refusal(armored(data))?.reason.contains("0 key derivation rounds") == true)
    }

    func testEntriesOfOtherAlgorithmsAreSkippedAndBadEntriesRefuseTheFile() throws {
        let (keys, _) = try sampleKeys()
        var random = SeededBytes(seed: 4)
        func sealed(_ list: JSONValue) throws -> String {
            try MegolmKeyExport.seal(CanonicalJSON.encode(list), passphrase: "p", rounds: rounds, random: &random)
        }
        let other: JSONValue = ["algorithm": "m.megolm.v2.aes-sha2", "room_id": "!r:x"]
        let mixed = try MegolmKeyExport.openKeys(sealed(.array([keys[0].json, other])), passphrase: "p")
        XCTAssertEqual(mixed.keys, [keys[0]])
        XCTAssertEqual(mixed.skipped, 1)

        var wrongID = keys[0].json.object!
        wrongID["session_id"] = .string(keys[1].sessionID)
        var noKey = keys[0].json.object!
        noKey["session_key"] = nil
        var badKey = keys[0].json.object!
        badKey["session_key"] = "AAAA"
        for (list, words) in [(JSONValue.array([keys[1].json, .object(wrongID)]), "session id that is not its key's"),
                              (.array([.object(noKey)]), "lacks its room"), (.array([.object(badKey)]), "does not read as a Megolm"),
                              (["not": "a list"], "does not hold a list"), (.array([.string("x")]), "does not hold a list")] {
            XCTAssertThrowsError(try MegolmKeyExport.openKeys(sealed(list), passphrase: "p")) { error in
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
        }
    }

    /// Seeded fuzz of the reader: random and mutated files are refused with a `KeyExportRefusal`,
    /// never a crash; no refusal holds the file's bytes.
    func testMutatedFilesAreRefusedWithoutCrashing() throws {
        let (keys, _) = try sampleKeys()
        var random = SeededBytes(seed: 5)
        let text = try MegolmKeyExport.seal(keys: keys, passphrase: "p", rounds: 1, random: &random)
        var seeded = SeededRandom(seed: 77)
        var refusals: [String: Int] = [:]
        for round in 0 ..< 3000 {
            var bytes = Array(text.utf8)
            if round % 10 == 0 {
                bytes = (0 ..< seeded.below(400)).map { _ in UInt8(truncatingIfNeeded: seeded.next()) }
            } else {
                for _ in 0 ... seeded.below(3) {
                    let at = seeded.below(bytes.count)
                    switch seeded.below(4) {
                    case 0: bytes[at] = seeded.pick(Array("AZaz09+/=\n-".utf8))
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(seeded.pick(Array("A/\n\r ".utf8)), at: at)
                    default: bytes = Array(bytes.prefix(at))
                    }
                    if bytes.isEmpty { break }
                }
            }
            do {
                _ = try MegolmKeyExport.openKeys(String(decoding: bytes, as: UTF8.self), passphrase: "p")
            } catch let refusal as KeyExportRefusal {
                refusals[refusal.reason, default: 0] += 1
            }
        }
        XCTAssertGreaterThan(refusals[KeyExportRefusal.wrongPassphraseOrChanged.reason, default: 0], 500)
        XCTAssertGreaterThan(refusals[KeyExportRefusal.truncated.reason, default: 0], 100)
        XCTAssertGreaterThan(refusals[KeyExportRefusal.notAKeyFile.reason, default: 0], 100)
    }

    func testPrintingAnEntryShowsNoKey() throws {
        let key = try sampleKeys().keys[0]
        let shown = "\(key) \(String(reflecting: key)) \(Mirror(reflecting: key).children.map { "\($0.value)" })"
        XCTAssertFalse(shown.contains(key.sessionKey.base64.prefix(20)), shown)
        XCTAssertTrue(shown.contains(key.sessionID), shown)
    }
}
