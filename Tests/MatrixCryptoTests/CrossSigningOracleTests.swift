import COlm
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// libolm's `OlmPkSigning` (what Element's older crypto signed cross-signing keys with) as the
/// oracle: from the same seeds it must publish the same keys and, Ed25519 being deterministic,
/// make byte-equal signatures of the same key and device objects.
final class CrossSigningOracleTests: XCTestCase {
    func testKeysAndSignaturesFromTheSameSeedsMatchLibolm() throws {
        var random = SeededBytes(seed: 1756)
        for round in 0 ..< 40 {
            let userID = "@user\(round):example.org"
            let keys = try CrossSigningKeys.generate(userID: userID, random: &random)
            for pair in [keys.master, keys.selfSigning, keys.userSigning] {
                XCTAssertEqual(try libolm(seed: pair.seed, signing: []).publicKey, UnpaddedBase64.encode(pair.publicKey))
            }
            let identity = try keys.publicIdentity()
            // The self-signing key object, signed by the master key: libolm signs the same canonical bytes alike.
            let selfSigningBytes = try JSONSigning.signedBytes(of: identity.selfSigning.json)
            XCTAssertEqual(try libolm(seed: keys.master.seed, signing: selfSigningBytes).signature,
                           identity.selfSigning.json["signatures"]?[userID]?["ed25519:\(identity.master.publicKeyBase64)"]?.string)
            // A device of random keys, signed by the self-signing key.
            let deviceID = "DEV\(round)"
            let device: JSONValue = [
                "user_id": .string(userID), "device_id": .string(deviceID), "algorithms": ["m.olm.v1.curve25519-aes-sha2"],
                "keys": .object(["ed25519:\(deviceID)": .string(UnpaddedBase64.encode(try random.bytes(32))),
                                 "curve25519:\(deviceID)": .string(UnpaddedBase64.encode(try random.bytes(32)))]),
            ]
            let signed = try keys.signDevice(device)
            XCTAssertEqual(try libolm(seed: keys.selfSigning.seed, signing: JSONSigning.signedBytes(of: device)).signature,
                           signed["signatures"]?[userID]?["ed25519:\(identity.selfSigning.publicKeyBase64)"]?.string)
            XCTAssertTrue(identity.hasCrossSigned(deviceKeys: signed))
        }
    }

    /// libolm's public key for `seed` and its signature of `message`, both in its unpadded base64.
    private func libolm(seed: [UInt8], signing message: [UInt8]) throws -> (publicKey: String, signature: String) {
        var memory = [UInt8](repeating: 0, count: olm_pk_signing_size())
        return try memory.withUnsafeMutableBytes { buffer in
            let signing = try XCTUnwrap(olm_pk_signing(buffer.baseAddress))
            defer { olm_clear_pk_signing(signing) }
            var publicKey = [UInt8](repeating: 0, count: olm_pk_signing_public_key_length())
            var seedBytes = seed
            guard olm_pk_signing_key_from_seed(signing, &publicKey, publicKey.count, &seedBytes, seedBytes.count) != olm_error() else {
                throw CryptoFailure(String(cString: olm_pk_signing_last_error(signing)))
            }
            var signature = [UInt8](repeating: 0, count: olm_pk_signature_length())
            guard olm_pk_sign(signing, message, message.count, &signature, signature.count) != olm_error() else {
                throw CryptoFailure(String(cString: olm_pk_signing_last_error(signing)))
            }
            return (String(decoding: publicKey, as: UTF8.self), String(decoding: signature, as: UTF8.self))
        }
    }
}
