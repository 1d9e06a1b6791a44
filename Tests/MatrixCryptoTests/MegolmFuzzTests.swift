import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Seeded fuzz of every Megolm decoder: random and mutated bytes are refused with an error,
/// never a crash; well-formed messages with extra fields, signed and MACed by the session, are
/// read exactly as libolm reads them.
final class MegolmFuzzTests: XCTestCase {
    private func bytes(_ count: Int, _ seeded: inout SeededRandom) -> [UInt8] {
        (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) }
    }

    /// `original` with a few bytes changed, inserted, removed, or cut short.
    private func mutated(_ original: [UInt8], _ seeded: inout SeededRandom) -> [UInt8] {
        var out = original
        for _ in 0 ... seeded.below(4) {
            switch seeded.below(5) {
            case 0 where !out.isEmpty: out[seeded.below(out.count)] ^= UInt8(1 << seeded.below(8))
            case 1 where !out.isEmpty: out[seeded.below(out.count)] = UInt8(truncatingIfNeeded: seeded.next())
            case 2: out.insert(seeded.pick([0x08, 0x12, 0x80, 0xFF, 0x00]), at: seeded.below(out.count + 1))
            case 3 where !out.isEmpty: out.remove(at: seeded.below(out.count))
            default: out = Array(out.prefix(seeded.below(out.count + 1)))
            }
        }
        return out
    }

    func testRandomAndMutatedMessagesAndKeysAreRefusedWithoutCrashing() throws {
        var seeded = SeededRandom(seed: 60)
        var source = FixedRandom(bytes(160, &seeded))
        var sender = try MegolmOutboundSession(random: &source, createdAtMilliseconds: 0)
        let key = try sender.sessionKey()
        var receiver = MegolmInboundSession(sessionKey: key)
        let export = try receiver.export(at: 0)
        let message = try sender.encrypt(Array("a message to break".utf8))
        var refusals: [MegolmFailure.Reason: Int] = [:]
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch let failure as MegolmFailure { refusals[failure.reason, default: 0] += 1 } catch {
                XCTFail("not a MegolmFailure: \(error)")
            }
        }
        for round in 0 ..< 4000 {
            let input: [UInt8] = switch round % 4 {
            case 0: bytes(seeded.below(300), &seeded)
            case 1: mutated(message.bytes, &seeded)
            case 2: mutated(key.bytes, &seeded)
            default: mutated(export.bytes, &seeded)
            }
            attempt { _ = try MegolmMessage(bytes: input) }
            attempt { _ = try receiver.decrypt(MegolmMessage(bytes: input)) }
            attempt { _ = try MegolmSessionKey(bytes: input) }
            attempt { _ = try MegolmExportedSessionKey(bytes: input) }
            attempt { _ = try MegolmMessage(base64: String(decoding: input, as: UTF8.self)) }
        }
        // The mutations reached past the parser: signatures and formats were both refused.
        XCTAssertGreaterThan(refusals[.badFormat, default: 0], 1000)
        XCTAssertGreaterThan(refusals[.badSignature, default: 0], 100)
        XCTAssertEqual(try receiver.decrypt(message).plaintext, Array("a message to break".utf8))
    }

    func testWellFormedMessagesWithExtraFieldsReadAsLibolmReadsThem() throws {
        var seeded = SeededRandom(seed: 61)
        var source = FixedRandom(bytes(160, &seeded))
        let sender = try MegolmOutboundSession(random: &source, createdAtMilliseconds: 0)
        let key = try sender.sessionKey().base64
        var ours = try MegolmInboundSession(sessionKey: key)
        let libolm = try LibolmInboundGroupSession(key: key)
        var agreed = 0
        for _ in 0 ..< 300 {
            let index = UInt32(seeded.below(600))
            var ratchet = sender.ratchet
            try ratchet.advance(to: index)
            let keys = try MegolmCipher.Keys(ratchet)
            let plaintext = bytes(seeded.below(40), &seeded)
            let ciphertext = try AES256.encryptCBC(key: keys.aesKey, iv: keys.iv, plaintext: plaintext)
            // The two known fields in either order, the index sometimes twice (the last counts),
            // among unknown varint and length-prefixed fields.
            var fields: [[UInt8]] = [[0x08] + varint(UInt64(index)), [0x12] + varint(UInt64(ciphertext.count)) + ciphertext]
            if seeded.below(2) == 0 { fields.swapAt(0, 1) }
            if seeded.below(4) == 0 { fields.insert([0x08] + varint(UInt64(seeded.below(600))), at: 0) }
            for _ in 0 ..< seeded.below(3) {
                // Field numbers 3–15, so the tag is one byte as libolm reads it.
                let tag = UInt8(seeded.below(13) + 3) << 3 | (seeded.below(2) == 0 ? 0 : 2)
                var field = [tag]
                if tag & 7 == 0 {
                    field += varint(seeded.next() >> UInt64(seeded.below(64)))
                } else {
                    let payload = bytes(seeded.below(5), &seeded)
                    field += varint(UInt64(payload.count)) + payload
                }
                fields.insert(field, at: seeded.below(fields.count + 1))
            }
            let authenticated = [MegolmMessage.version] + fields.flatMap { $0 }
            let signed = try authenticated + keys.mac(authenticated)
            let text = UnpaddedBase64.encode(signed + (try sender.signing.sign(signed)))
            let mine = Result { try ours.decrypt(base64: text) }
            let theirs = Result { try libolm.decrypt(text) }
            switch (mine, theirs) {
            case (.success(let a), .success(let b)):
                XCTAssertEqual(a.plaintext, b.plaintext)
                XCTAssertEqual(a.messageIndex, b.index)
                agreed += 1
            case (.failure, .failure): break
            default: XCTFail("we and libolm disagree on \(text): \(mine) / \(theirs)")
            }
        }
        XCTAssertEqual(agreed, 300, "every crafted message decrypts, the last index field counting")
    }

    func testMutatedStoredStateDecodesOrIsRefusedWithoutCrashing() throws {
        var seeded = SeededRandom(seed: 62)
        var source = FixedRandom(bytes(160, &seeded))
        var sender = try MegolmOutboundSession(random: &source, createdAtMilliseconds: 1_700_000_000_000)
        var receiver = MegolmInboundSession(sessionKey: try sender.sessionKey())
        _ = try receiver.decrypt(sender.encrypt([1, 2, 3]))
        var replays = MegolmReplayGuard()
        _ = replays.check(sessionID: sender.sessionID, messageIndex: 0, eventID: "$event")
        let encoder = JSONEncoder()
        let stored = [try encoder.encode(sender), try encoder.encode(receiver), try encoder.encode(replays), try encoder.encode(sender.ratchet)]
        // Each decoder, fed mutations of its own kind of state: how many it read, and whatever it
        // read must be stable (encoding it again and reading that back gives the same bytes).
        var read = [0, 0, 0, 0]
        func stable<T: Codable>(_ type: T.Type, _ data: Data) -> Bool {
            guard let value = try? JSONDecoder().decode(type, from: data) else { return false }
            let canonical = JSONEncoder()
            canonical.outputFormatting = .sortedKeys
            do {
                let once = try canonical.encode(value)
                XCTAssertEqual(try canonical.encode(JSONDecoder().decode(type, from: once)), once, "\(type) read back differently")
            } catch { XCTFail("\(type) read but does not encode and read back: \(error)") }
            return true
        }
        for round in 0 ..< 3000 {
            let kind = round % 4
            let data = Data(mutated(Array(stored[kind]), &seeded))
            let results: [Bool] = [
                stable(MegolmOutboundSession.self, data), stable(MegolmInboundSession.self, data),
                stable(MegolmReplayGuard.self, data), stable(MegolmRatchet.self, data),
            ]
            if results[kind] { read[kind] += 1 }
        }
        // Some mutations leave valid state (a changed digit, a changed base64 character), most do
        // not: every decoder both reads some and refuses most of its 750.
        for (kind, count) in read.enumerated() {
            XCTAssertGreaterThan(count, 0, "decoder \(kind) read none")
            XCTAssertLessThan(count, 750 / 2, "decoder \(kind) read most mutations")
        }
    }

    private func varint(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return out + [UInt8(value)]
    }
}
