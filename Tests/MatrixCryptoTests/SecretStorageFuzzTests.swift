import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A seeded fuzz of every decoder of secret storage's and cross-signing's JSON shapes: valid
/// contents with members replaced, dropped or added at random must be read or refused, never
/// crash, and never decrypt to something other than what was stored.
final class SecretStorageFuzzTests: XCTestCase {
    func testDecodersOfMutatedContentsRefuseOrReadWithoutCrashing() throws {
        var random = SeededBytes(seed: 4_2024)
        let userID = "@alice:example.org"
        let keys = try CrossSigningKeys.generate(userID: userID, random: &random)
        let identity = try keys.publicIdentity()
        let (storage, description) = try SecretStorageKey.generate(keyID: "K", name: "n", random: &random)
        let secrets = try keys.secretEventContents(for: storage, random: &random)
        let masterSecret = try storage.decryptSecret(named: CrossSigningKeys.masterSecretName, eventContent: try XCTUnwrap(secrets[CrossSigningKeys.masterSecretName]))
        let passphrased = SecretStorageKeyDescription(keyID: "K", name: nil, passphrase: .init(salt: "s", iterations: 1), iv: description.iv, mac: description.mac)
        let seeds: [JSONValue] = [
            description.content, passphrased.content, ["key": "K"], identity.master.json, identity.selfSigning.json,
            try XCTUnwrap(identity.userSigning).json,
            try XCTUnwrap(secrets[CrossSigningKeys.masterSecretName]), try keys.signDevice(["user_id": .string(userID), "device_id": "D"]),
        ]
        var refused = 0
        // Per decoder (in the order they are tried each round): how often it read and refused.
        var reads: [Int: Int] = [:], refusals: [Int: Int] = [:]
        for round in 0 ..< 3000 {
            let content = mutate(seeds[round % seeds.count], random: &random.seeded, depth: 0)
            var attemptIndex = 0
            func attempt(_ body: () throws -> Void) {
                defer { attemptIndex += 1 }
                do { try body(); reads[attemptIndex, default: 0] += 1 } catch {
                    refused += 1
                    refusals[attemptIndex, default: 0] += 1
                    XCTAssertFalse("\(error)".isEmpty)
                }
            }
            attempt { _ = try SecretStorageKeyDescription(keyID: "K", content: content) }
            attempt { _ = try SecretStorageKeyDescription.defaultKeyID(from: content) }
            attempt { _ = try SecretStorageCipher.Encrypted(json: content["encrypted"]?["K"] ?? content) }
            attempt {
                // Whatever decrypts under the MAC is what was stored.
                let text = try storage.decryptSecret(named: CrossSigningKeys.masterSecretName, eventContent: content)
                XCTAssertEqual(text, masterSecret)
            }
            attempt {
                let described = try SecretStorageKeyDescription(keyID: "K", content: content)
                if described.passphrase != nil { _ = try SecretStorageKey(passphrase: "p", description: described) }
                _ = try SecretStorageKey(recoveryKey: storage.recoveryKey, description: described)
            }
            for usage in CrossSigningPublicKey.Usage.allCases { attempt { _ = try CrossSigningPublicKey(json: content, usage: usage, userID: userID) } }
            attempt {
                let response: JSONValue = ["master_keys": [userID: content], "self_signing_keys": .object([userID: round % 2 == 0 ? content : identity.selfSigning.json])]
                _ = try CrossSigningIdentity.fromKeysQuery(response, userID: userID)
            }
            _ = identity.hasCrossSigned(deviceKeys: content)
            _ = CrossSigningTrust().deviceStatus(deviceKeys: content, identity: identity)
            attempt {
                // The other two secrets as stored, so an intact master secret reads.
                let accountData = secrets.merging([CrossSigningKeys.masterSecretName: content]) { $1 }
                _ = try CrossSigningKeys(userID: userID, secretStorage: storage, accountData: accountData)
            }
            attempt { _ = try keys.signaturesUploadBody(deviceKeys: content) }
        }
        XCTAssertGreaterThan(refused, 3000, "the mutations reach the refusals")
        // Every decoder is reached both ways: the mutations leave some contents it reads and make
        // some it refuses, so neither the happy path nor the refusals go untried.
        let attempted = Set(reads.keys).union(refusals.keys)
        XCTAssertEqual(attempted.count, 8 + CrossSigningPublicKey.Usage.allCases.count)
        for index in attempted.sorted() {
            XCTAssertGreaterThan(reads[index, default: 0], 0, "decoder \(index) never read a content")
            XCTAssertGreaterThan(refusals[index, default: 0], 0, "decoder \(index) never refused one")
        }
    }

    /// `value` with, at random, members replaced by junk, dropped, added, or strings bit-flipped.
    private func mutate(_ value: JSONValue, random: inout SeededRandom, depth: Int) -> JSONValue {
        if random.below(6) == 0 { return junk(&random, depth: depth) }
        switch value {
        case .object(var members):
            for key in members.keys where random.below(3) == 0 {
                members[key] = random.below(4) == 0 ? nil : mutate(members[key]!, random: &random, depth: depth + 1)
            }
            if random.below(5) == 0 { members[random.pick(["iv", "mac", "ciphertext", "key", "keys", "usage", "user_id", "encrypted", "K"])] = junk(&random, depth: depth) }
            return .object(members)
        case .array(let elements): return .array(elements.map { mutate($0, random: &random, depth: depth + 1) })
        case .string(let text):
            var bytes = Array(text.utf8)
            if !bytes.isEmpty, random.below(2) == 0 { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(7)) }
            if random.below(4) == 0 { bytes = Array(bytes.prefix(random.below(bytes.count + 1))) }
            return .string(String(decoding: bytes, as: UTF8.self))
        default: return value
        }
    }

    private func junk(_ random: inout SeededRandom, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(random.pick([0, -1, 1e300, 2_000_000_000, 256, 1.5, .infinity]))
        case 3: return .string(random.pick(["", "=", "AAAA", "ed25519:AAAA", "m.pbkdf2", String(repeating: "A", count: 70_000), "\u{0}"]))
        case 4: return .string(UnpaddedBase64.encode((0 ..< random.below(48)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case 5: return .array((0 ..< random.below(3)).map { _ in junk(&random, depth: depth + 1) })
        default: return .object(["K": junk(&random, depth: depth + 1), "ed25519:AAAA": junk(&random, depth: depth + 1)])
        }
    }
}
