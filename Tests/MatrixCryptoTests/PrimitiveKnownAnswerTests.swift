import Foundation
import XCTest
@testable import MatrixCrypto

/// OpenSSL's primitives through our names, against the RFCs' and NIST's published vectors.
final class PrimitiveKnownAnswerTests: XCTestCase {
    func testX25519MatchesRFC7748() throws {
        let alice = try Curve25519KeyPair(privateKey: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try Curve25519KeyPair(privateKey: hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        XCTAssertEqual(alice.publicKey, hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        XCTAssertEqual(bob.publicKey, hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        let shared = hex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        XCTAssertEqual(try alice.sharedSecret(with: bob.publicKey), shared)
        XCTAssertEqual(try bob.sharedSecret(with: alice.publicKey), shared)
    }

    func testX25519RefusesKeysOfSmallOrderAndWrongLengths() throws {
        let alice = try Curve25519KeyPair(privateKey: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        XCTAssertThrowsError(try alice.sharedSecret(with: [UInt8](repeating: 0, count: 32)), "the zero point gives an all-zero secret")
        XCTAssertThrowsError(try alice.sharedSecret(with: [UInt8](repeating: 9, count: 31)))
        XCTAssertThrowsError(try Curve25519KeyPair(privateKey: [1, 2, 3]))
    }

    func testEd25519MatchesRFC8032() throws {
        let one = try Ed25519KeyPair(seed: hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        XCTAssertEqual(one.publicKey, hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let signatureOne = hex("""
            e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b
            """)
        XCTAssertEqual(try one.sign([]), signatureOne)
        let two = try Ed25519KeyPair(seed: hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"))
        XCTAssertEqual(two.publicKey, hex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        let signatureTwo = hex("""
            92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00
            """)
        XCTAssertEqual(try two.sign([0x72]), signatureTwo)
        XCTAssertTrue(Ed25519KeyPair.verify(signature: signatureTwo, of: [0x72], by: two.publicKey))
        XCTAssertFalse(Ed25519KeyPair.verify(signature: signatureTwo, of: [0x73], by: two.publicKey), "another message")
        XCTAssertFalse(Ed25519KeyPair.verify(signature: signatureTwo, of: [0x72], by: one.publicKey), "another key")
        XCTAssertFalse(Ed25519KeyPair.verify(signature: Array(signatureTwo.dropLast()), of: [0x72], by: two.publicKey))
    }

    func testHKDFMatchesRFC5869() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        XCTAssertEqual(try KeyDerivation.hkdfSHA256(key: ikm, salt: hex("000102030405060708090a0b0c"), info: hex("f0f1f2f3f4f5f6f7f8f9"), length: 42),
                       hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
        XCTAssertEqual(try KeyDerivation.hkdfSHA256(key: ikm, salt: [], info: [], length: 42),
                       hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    func testHMACAndDigestsMatchRFC4231AndFIPS180() throws {
        XCTAssertEqual(try Digest.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), data: utf8("Hi There")),
                       hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
        XCTAssertEqual(try Digest.hmacSHA256(key: utf8("Jefe"), data: utf8("what do ya want for nothing?")),
                       hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
        XCTAssertEqual(try Digest.hmacSHA256(key: [], data: []), hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
        XCTAssertEqual(try Digest.sha256(utf8("abc")), hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        XCTAssertEqual(try Digest.sha512(utf8("abc")), hex("""
            ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f
            """))
    }

    func testAESMatchesSP80038A() throws {
        let key = hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let block = hex("6bc1bee22e409f96e93d7e117393172a")
        let cbc = try AES256.encryptCBC(key: key, iv: hex("000102030405060708090a0b0c0d0e0f"), plaintext: block)
        XCTAssertEqual(Array(cbc.prefix(16)), hex("f58c4c04d6e5f1ba779eabfb5f7bfbd6"))
        XCTAssertEqual(cbc.count, 32, "a whole block of plaintext gains a whole block of padding")
        XCTAssertEqual(try AES256.decryptCBC(key: key, iv: hex("000102030405060708090a0b0c0d0e0f"), ciphertext: cbc), block)
        let counter = hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
        XCTAssertEqual(try AES256.ctr(key: key, iv: counter, data: block), hex("601ec313775789a5b7a7f504bbf3d228"))
        XCTAssertEqual(try AES256.ctr(key: key, iv: counter, data: hex("601ec313775789a5b7a7f504bbf3d228")), block)
    }

    func testAESRefusesWrongKeysLengthsAndPadding() throws {
        let key = [UInt8](repeating: 7, count: 32), iv = [UInt8](repeating: 1, count: 16)
        let sealed = try AES256.encryptCBC(key: key, iv: iv, plaintext: utf8("hello"))
        var otherKey = key
        otherKey[0] ^= 1
        // A wrong key gives bad padding almost always; over several messages it must show.
        let refusals = try (0 ..< 20).filter { n in
            let text = try AES256.encryptCBC(key: key, iv: iv, plaintext: utf8("message \(n)"))
            return (try? AES256.decryptCBC(key: otherKey, iv: iv, ciphertext: text)) == nil
        }
        XCTAssertGreaterThan(refusals.count, 15)
        XCTAssertThrowsError(try AES256.decryptCBC(key: key, iv: iv, ciphertext: Array(sealed.dropLast())), "not whole blocks")
        XCTAssertThrowsError(try AES256.decryptCBC(key: key, iv: iv, ciphertext: []))
        XCTAssertThrowsError(try AES256.encryptCBC(key: Array(key.dropLast()), iv: iv, plaintext: []))
        XCTAssertThrowsError(try AES256.ctr(key: key, iv: Array(iv.dropLast()), data: []))
        XCTAssertEqual(try AES256.ctr(key: key, iv: iv, data: []), [])
    }

    func testPBKDF2MatchesPublishedVectors() throws {
        XCTAssertEqual(try KeyDerivation.pbkdf2SHA256(password: utf8("password"), salt: utf8("salt"), iterations: 1, length: 32),
                       hex("120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"))
        XCTAssertEqual(try KeyDerivation.pbkdf2SHA256(password: utf8("password"), salt: utf8("salt"), iterations: 2, length: 32),
                       hex("ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"))
        XCTAssertEqual(try KeyDerivation.pbkdf2SHA512(password: utf8("password"), salt: utf8("salt"), iterations: 1, length: 64), hex("""
            867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce
            """))
        XCTAssertThrowsError(try KeyDerivation.pbkdf2SHA512(password: [], salt: [], iterations: 0, length: 32))
    }

    func testConstantTimeEqualityAndSystemRandom() throws {
        XCTAssertTrue(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(ConstantTime.equal([1, 2, 3], [1, 2]))
        XCTAssertTrue(ConstantTime.equal([], []))
        var random = SystemRandom()
        let a = try random.bytes(32), b = try random.bytes(32)
        XCTAssertEqual(a.count, 32)
        XCTAssertNotEqual(a, b, "two draws of 256 bits differ")
    }

    /// The HMAC context is prepared once and copied per call: calls from many threads at once
    /// (Megolm decrypts run off the main task) agree with one thread's answers.
    func testHMACFromManyThreadsAtOnceAgreesWithOneThread() throws {
        let inputs = (0 ..< 64).map { index in ((0 ..< index % 40).map { UInt8(($0 * 31 + index) & 0xff) }, [UInt8](repeating: UInt8(index), count: index)) }
        let expected = try inputs.map { try Digest.hmacSHA256(key: $0.0, data: $0.1) }
        // Each iteration writes only its own slot.
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: inputs.count * 8)
        defer { results.deallocate() }
        results.initialize(repeating: [])
        DispatchQueue.concurrentPerform(iterations: inputs.count * 8) { slot in
            let input = inputs[slot % inputs.count]
            results[slot] = (try? Digest.hmacSHA256(key: input.0, data: input.1)) ?? []
        }
        for slot in 0 ..< results.count { XCTAssertEqual(results[slot], expected[slot % inputs.count], "slot \(slot)") }
        XCTAssertEqual(expected[0], hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"), "empty key and data")
    }
}
