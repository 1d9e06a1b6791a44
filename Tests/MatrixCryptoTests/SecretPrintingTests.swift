import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// No type that holds secret bytes shows them when printed, debug-printed or dumped (as `"\(x)"`,
/// `dump` and XCTest's failure messages do): not in hex, base64 or as a list of numbers.
final class SecretPrintingTests: XCTestCase {
    /// The ways a secret's bytes would show: hex, base64 (of a 3-byte-aligned prefix, so it is a
    /// prefix of the whole key's base64), and Swift's own `[1, 2, 3` array printing.
    private func spellings(of secret: [UInt8]) -> [String] {
        let prefix = Array(secret.prefix(12))
        return [prefix.map { String(format: "%02x", $0) }.joined(), prefix.map { String(format: "%02X", $0) }.joined(),
                UnpaddedBase64.encode(prefix), "[" + prefix.prefix(4).map(String.init).joined(separator: ", ")]
    }

    private func assertShowsNone(_ value: Any, of secrets: [[UInt8]], file: StaticString = #filePath, line: UInt = #line) {
        var dumped = ""
        dump(value, to: &dumped)
        // `dump` lists an array's bytes one per line ("  - 168"): read those numbers in order.
        let dumpedNumbers = dumped.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " || $0 == "-" || $0 == "▿" }
            return trimmed.allSatisfy(\.isNumber) && !trimmed.isEmpty ? String(trimmed) : nil
        }.joined(separator: ",")
        for secret in secrets where ("," + dumpedNumbers + ",").contains("," + secret.prefix(6).map(String.init).joined(separator: ",") + ",") {
            XCTFail("\(type(of: value)) dumps a secret's bytes", file: file, line: line)
        }
        for text in ["\(value)", String(reflecting: value), dumped] {
            for secret in secrets {
                for spelling in spellings(of: secret) where text.contains(spelling) {
                    XCTFail("\(type(of: value)) shows a secret as \(spelling)", file: file, line: line)
                }
            }
        }
    }

    func testNoTypeHoldingSecretBytesShowsThemWhenPrintedOrDumped() throws {
        var random = SeededBytes(seed: 33)
        let curve = try Curve25519KeyPair(random: &random)
        assertShowsNone(curve, of: [curve.privateKey])
        let ed = try Ed25519KeyPair(seed: random.bytes(32))
        assertShowsNone(ed, of: [ed.seed])

        var alice = try OlmAccount(random: &random)
        try alice.generateOneTimeKeys(2, random: &random)
        var bob = try OlmAccount(random: &random)
        try bob.generateOneTimeKeys(1, random: &random)
        let accountSecrets = [alice.ed25519Seed, alice.curve25519PrivateKey] + alice.oneTimeKeys.map(\.privateKey)
        assertShowsNone(alice, of: accountSecrets)
        assertShowsNone([alice], of: accountSecrets)
        var session = try OlmSession.outbound(account: alice, theirIdentityKey: bob.curve25519Key,
                                              theirOneTimeKey: bob.oneTimeKeys[0].publicKey, random: &random)
        _ = try session.encrypt([1, 2, 3], random: &random)
        let ratchetSecrets = [session.ratchet.rootKey] + [session.ratchet.senderChain].compactMap { $0 }.flatMap {
            [$0.ratchetPrivateKey, $0.chainKey.key]
        }
        XCTAssertEqual(ratchetSecrets.count, 3)
        assertShowsNone(session, of: ratchetSecrets)
        assertShowsNone(session.ratchet, of: ratchetSecrets)

        let recovery = RecoveryKey(key: try random.bytes(32))
        assertShowsNone(recovery, of: [recovery.key])
        let (storageKey, _) = try SecretStorageKey.generate(keyID: "k", name: nil, random: &random)
        assertShowsNone(storageKey, of: [storageKey.bytes])
        let crossSigning = try CrossSigningKeys.generate(userID: "@ann:hs", random: &random)
        assertShowsNone(crossSigning, of: [crossSigning.master.seed, crossSigning.selfSigning.seed, crossSigning.userSigning.seed])
        let storeKey = CryptoStoreKey(bytes: try random.bytes(32))
        assertShowsNone(storeKey, of: [storeKey.bytes])
    }

    func testAnOpenStoreShowsNeitherItsRecordsNorItsKeys() throws {
        let folder = try StoreTestFolder()
        defer { folder.remove() }
        let store = try CryptoStore.open(at: folder.location)
        let secret = (0 ..< 32).map { UInt8($0 * 7 & 0xff) }
        try store.put(UnpaddedBase64.encode(secret), id: "pickle", in: CryptoStoreCollection<String>("test.secrets"))
        var dumped = ""
        dump(store, to: &dumped)
        // A record or key reached by the dump would show as an array of byte values.
        XCTAssertFalse(dumped.contains("elements"), dumped)
        XCTAssertFalse(dumped.contains("keys") || dumped.contains("seal"), dumped)
        XCTAssertTrue(dumped.contains("test.secrets"), dumped)
        XCTAssertFalse("\(store)".contains(UnpaddedBase64.encode(Array(secret.prefix(12)))))
    }
}
