import COlm
import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// libolm, fed the same random bytes, as the oracle for what our primitives make of them.
final class OlmAccountOracleTests: XCTestCase {
    func testIdentityKeysFromTheSameRandomBytesMatchLibolm() throws {
        var seeded = SeededRandom(seed: 11)
        for _ in 0 ..< 20 {
            let random = (0 ..< 64).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) }
            let theirs = try libolmIdentityKeys(random: random)
            // libolm takes the Ed25519 seed first, then the Curve25519 private key.
            let ed25519 = try Ed25519KeyPair(seed: Array(random[0 ..< 32]))
            let curve25519 = try Curve25519KeyPair(privateKey: Array(random[32 ..< 64]))
            XCTAssertEqual(theirs["ed25519"]?.string, UnpaddedBase64.encode(ed25519.publicKey))
            XCTAssertEqual(theirs["curve25519"]?.string, UnpaddedBase64.encode(curve25519.publicKey))
        }
    }

    func testLibolmVerifiesOurSignaturesAndHashesAlike() throws {
        let key = try Ed25519KeyPair(seed: [UInt8](repeating: 42, count: 32))
        let message = utf8(#"{"algorithms":["m.olm.v1.curve25519-aes-sha2"],"device_id":"JLAFKJWSCS"}"#)
        let signature = UnpaddedBase64.encode(try key.sign(message))
        let utility = [UInt8](repeating: 0, count: olm_utility_size())
        try utility.withUnsafeBufferPointer { buffer in
            let olm = olm_utility(UnsafeMutableRawPointer(mutating: buffer.baseAddress!))
            var publicKey = utf8(UnpaddedBase64.encode(key.publicKey)), text = message, signed = utf8(signature)
            let verified = olm_ed25519_verify(olm, &publicKey, publicKey.count, &text, text.count, &signed, signed.count)
            XCTAssertNotEqual(verified, olm_error(), String(cString: olm_utility_last_error(olm)))
            var out = [UInt8](repeating: 0, count: olm_sha256_length(olm))
            XCTAssertNotEqual(olm_sha256(olm, &text, text.count, &out, out.count), olm_error())
            XCTAssertEqual(String(decoding: out, as: UTF8.self), UnpaddedBase64.encode(try Digest.sha256(message)))
            // A changed message must fail there too, or the check above proves nothing.
            text[3] ^= 1
            XCTAssertEqual(olm_ed25519_verify(olm, &publicKey, publicKey.count, &text, text.count, &signed, signed.count), olm_error())
            _ = try XCTUnwrap(olm)
        }
    }

    /// The identity keys JSON libolm gives for an account made from `random`.
    private func libolmIdentityKeys(random: [UInt8]) throws -> JSONValue {
        var memory = [UInt8](repeating: 0, count: olm_account_size())
        return try memory.withUnsafeMutableBytes { buffer in
            let account = olm_account(buffer.baseAddress!)
            var bytes = random
            XCTAssertEqual(olm_create_account_random_length(account), 64)
            guard olm_create_account(account, &bytes, bytes.count) != olm_error() else {
                throw CryptoFailure(String(cString: olm_account_last_error(account)))
            }
            var keys = [UInt8](repeating: 0, count: olm_account_identity_keys_length(account))
            let length = olm_account_identity_keys(account, &keys, keys.count)
            return try JSONValue(parsing: Data(keys.prefix(length)))
        }
    }
}
