import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Seeded fuzz of the verification event decoders and of a verification fed what they accept:
/// mangled contents are refused or handled (a cancel), never a crash.
final class VerificationMessageFuzzTests: XCTestCase {
    private static let samples: [(String, JSONValue)] = [
        ("m.key.verification.request", ["from_device": "D", "methods": ["m.sas.v1"], "timestamp": 1_800_000_000_000, "transaction_id": "t"]),
        ("m.room.message", ["msgtype": "m.key.verification.request", "from_device": "D", "methods": ["m.sas.v1"], "to": "@a:x", "body": "b"]),
        ("m.key.verification.ready", ["from_device": "D", "methods": ["m.sas.v1"], "transaction_id": "t"]),
        ("m.key.verification.start", ["from_device": "D", "method": "m.sas.v1", "key_agreement_protocols": ["curve25519-hkdf-sha256"],
                                      "hashes": ["sha256"], "message_authentication_codes": ["hkdf-hmac-sha256.v2"],
                                      "short_authentication_string": ["emoji", "decimal"], "transaction_id": "t"]),
        ("m.key.verification.accept", ["key_agreement_protocol": "curve25519-hkdf-sha256", "hash": "sha256",
                                       "message_authentication_code": "hkdf-hmac-sha256.v2", "short_authentication_string": ["emoji"],
                                       "commitment": "abc", "transaction_id": "t"]),
        ("m.key.verification.key", ["key": "3Yh6fE3lsGGkt1bLS4s2ZlxafEO1FxePSvuZzjZDJ1o", "transaction_id": "t"]),
        ("m.key.verification.mac", ["keys": "k", "mac": ["ed25519:D": "m"], "transaction_id": "t"]),
        ("m.key.verification.done", ["transaction_id": "t"]),
        ("m.key.verification.cancel", ["code": "m.user", "reason": "r", "transaction_id": "t"]),
    ]

    func testMangledMessagesAreRefusedOrHandledNeverACrash() throws {
        var seeded = SeededRandom(seed: 3434)
        var random = SeededBytes(seed: 1)
        var read = 0
        for _ in 0 ..< 3000 {
            let (type, content) = Self.samples[Int.random(in: 0 ..< Self.samples.count, using: &seeded)]
            let mangled = mangle(content, &seeded)
            guard let message = try? VerificationMessage(type: type, content: mangled) else { continue }
            read += 1
            // Fed to verifications in each phase they can be in early, whatever it is.
            var (verification, _) = try SasVerification.requesting(
                transport: .toDevice(transactionID: "t"), ourUserID: "@a:x", ourDeviceID: "A", theirUserID: "@b:x", theirDeviceID: nil,
                ourKeys: ["ed25519:A": "k"], theirDevices: ["D": "k"], theirMasterKey: nil, nowMilliseconds: 1_800_000_000_000, random: &random)
            _ = verification.receive(message, from: "@b:x", nowMilliseconds: 1_800_000_000_001)
            verification._checkInvariants()
            if var answering = try SasVerification.answering(message, transport: .toDevice(transactionID: "t"), ourUserID: "@a:x",
                                                            ourDeviceID: "A", theirUserID: "@b:x", ourKeys: [:], theirDevices: [:],
                                                            theirMasterKey: nil, nowMilliseconds: 1_800_000_000_000, random: &random) {
                _ = answering.accept()
                _ = answering.receive(message, from: "@b:x", nowMilliseconds: 1_800_000_000_001)
                answering._checkInvariants()
            }
        }
        XCTAssertGreaterThan(read, 100, "the fuzz must reach the machine, not only the decoder")
    }

    /// `value` with one random change: a member dropped, retyped or replaced, deep or shallow.
    private func mangle(_ value: JSONValue, _ seeded: inout SeededRandom) -> JSONValue {
        guard case .object(var members) = value, let key = members.keys.sorted().randomElement(using: &seeded) else { return value }
        switch Int.random(in: 0 ..< 6, using: &seeded) {
        case 0: members[key] = nil
        case 1: members[key] = .number(Double(Int.random(in: -5 ... 5, using: &seeded)))
        case 2: members[key] = .array([.null, .string(String(repeating: "\u{0}", count: Int.random(in: 0 ... 40, using: &seeded)))])
        case 3: members[key] = .string(String(repeating: "A", count: Int.random(in: 0 ... 60, using: &seeded)))
        case 4: members[key] = .object(["m.relates_to": .object([:])])
        default: break
        }
        return .object(members)
    }
}
