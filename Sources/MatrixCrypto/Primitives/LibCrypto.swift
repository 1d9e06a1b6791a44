import COpenSSL

/// Every call into OpenSSL's libcrypto, with Swift names: the one file that imports it, as
/// `System/` is for POSIX. Bytes in and out are `[UInt8]`; a failure throws `CryptoFailure`
/// naming the operation. Nothing here keeps state between calls but the algorithms it looks up
/// once (`Fetched`).
enum LibCrypto {
    // MARK: Random bytes and comparison

    /// `count` bytes from the system's random generator.
    static func randomBytes(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count == 0 || RAND_bytes(&bytes, Int32(count)) == 1 else { throw CryptoFailure("random bytes") }
        return bytes
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return CRYPTO_memcmp(a, b, a.count) == 0
    }

    // MARK: Digests and MACs

    /// SHA-256 of `data`.
    static func sha256(_ data: [UInt8]) throws -> [UInt8] { try digest(data, Fetched.sha256, 32, name: "SHA-256") }

    /// SHA-512 of `data`.
    static func sha512(_ data: [UInt8]) throws -> [UInt8] { try digest(data, Fetched.sha512, 64, name: "SHA-512") }

    private static func digest(_ data: [UInt8], _ md: OpaquePointer?, _ size: Int, name: String) throws -> [UInt8] {
        guard let md else { throw CryptoFailure("\(name) (the library has no such digest)") }
        var out = [UInt8](repeating: 0, count: size)
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { EVP_Digest($0.baseAddress, data.count, &out, &length, md, nil) }
        guard ok == 1, Int(length) == size else { throw CryptoFailure(name) }
        return out
    }

    /// HMAC-SHA-256 of `data` under `key`: a copy of the one prepared context (HMAC with SHA-256
    /// set), so no call looks the algorithms up again (a Megolm ratchet step can take a thousand).
    static func hmacSHA256(key: [UInt8], data: [UInt8]) throws -> [UInt8] {
        guard let template = Fetched.hmacSHA256, let context = EVP_MAC_CTX_dup(template) else {
            throw CryptoFailure("HMAC-SHA-256 (the library has no such MAC)")
        }
        defer { EVP_MAC_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: 32)
        var length = 0
        // An empty key is a valid HMAC key (all zeros); OpenSSL wants a pointer all the same.
        let keyBytes = key.isEmpty ? [0] : key
        let ok = keyBytes.withUnsafeBytes { k in
            data.withUnsafeBytes { d in
                EVP_MAC_init(context, k.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, nil) == 1
                    && (data.isEmpty || EVP_MAC_update(context, d.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count) == 1)
                    && EVP_MAC_final(context, &out, &length, 32) == 1
            }
        }
        guard ok, length == 32 else { throw CryptoFailure("HMAC-SHA-256") }
        return out
    }

    /// Algorithms looked up once (Swift runs a static's initializer once, thread-safely). OpenSSL
    /// lets fetched algorithms be shared across threads, and the MAC context here is only ever
    /// copied, never used itself; nil when the library refused (a bad configuration), so each
    /// call then throws rather than traps.
    private enum Fetched {
        nonisolated(unsafe) static let sha256: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)
        nonisolated(unsafe) static let sha512: OpaquePointer? = EVP_MD_fetch(nil, "SHA512", nil)
        nonisolated(unsafe) static let hmacSHA256: OpaquePointer? = {
            guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { return nil }
            defer { EVP_MAC_free(mac) }  // the context keeps its own reference
            guard let context = EVP_MAC_CTX_new(mac) else { return nil }
            let set = "digest".withCString { key in
                "SHA256".withCString { value in
                    var parameters = [OSSL_PARAM_construct_utf8_string(key, UnsafeMutablePointer(mutating: value), 0),
                                      OSSL_PARAM_construct_end()]
                    return EVP_MAC_CTX_set_params(context, &parameters)
                }
            }
            guard set == 1 else {
                EVP_MAC_CTX_free(context)
                return nil
            }
            return context
        }()
    }

    // MARK: Key derivation

    /// HKDF-SHA-256 (RFC 5869): `length` bytes from `key`, `salt` and `info`.
    static func hkdfSHA256(key: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else { throw CryptoFailure("HKDF") }
        defer { EVP_PKEY_CTX_free(context) }
        // An empty salt is HashLen zero bytes (RFC 5869 2.2); said outright, not left to the library.
        let saltBytes = salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt
        var out = [UInt8](repeating: 0, count: length)
        var outLength = length
        guard EVP_PKEY_derive_init(context) == 1,
              EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()) == 1,
              EVP_PKEY_CTX_set1_hkdf_salt(context, saltBytes, Int32(saltBytes.count)) == 1,
              EVP_PKEY_CTX_set1_hkdf_key(context, key.isEmpty ? [0] : key, Int32(key.count)) == 1,
              info.isEmpty || EVP_PKEY_CTX_add1_hkdf_info(context, info, Int32(info.count)) == 1,
              EVP_PKEY_derive(context, &out, &outLength) == 1, outLength == length
        else { throw CryptoFailure("HKDF") }
        return out
    }

    /// The digest PBKDF2 runs on.
    enum PBKDF2Digest { case sha256, sha512 }

    /// PBKDF2-HMAC (RFC 8018): `length` bytes from a password and salt.
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, length: Int, digest: PBKDF2Digest) throws -> [UInt8] {
        guard iterations > 0, iterations <= Int(Int32.max) else { throw CryptoFailure("PBKDF2 iterations") }
        var out = [UInt8](repeating: 0, count: length)
        let md = digest == .sha256 ? EVP_sha256() : EVP_sha512()
        let ok = password.withUnsafeBytes { p in
            salt.withUnsafeBytes { s in
                PKCS5_PBKDF2_HMAC(p.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count),
                                  s.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(salt.count),
                                  Int32(iterations), md, Int32(length), &out)
            }
        }
        guard ok == 1 else { throw CryptoFailure("PBKDF2") }
        return out
    }

    // MARK: AES-256

    /// AES-256-CBC with PKCS#7 padding; decrypting checks the padding.
    static func aes256CBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
        try cipher(EVP_aes_256_cbc(), encrypting: encrypting, key: key, iv: iv, data: data, name: "AES-256-CBC")
    }

    /// AES-256-CTR: the same call encrypts and decrypts.
    static func aes256CTR(key: [UInt8], iv: [UInt8], data: [UInt8]) throws -> [UInt8] {
        try cipher(EVP_aes_256_ctr(), encrypting: true, key: key, iv: iv, data: data, name: "AES-256-CTR")
    }

    private static func cipher(_ kind: OpaquePointer?, encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8],
                               name: String) throws -> [UInt8] {
        guard key.count == 32, iv.count == 16 else { throw CryptoFailure("\(name) key or IV length") }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoFailure(name) }
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: data.count + 16)
        var written: Int32 = 0
        var finished: Int32 = 0
        guard EVP_CipherInit_ex(context, kind, nil, key, iv, encrypting ? 1 : 0) == 1,
              data.withUnsafeBytes({ EVP_CipherUpdate(context, &out, &written, $0.baseAddress, Int32(data.count)) }) == 1 || data.isEmpty,
              out.withUnsafeMutableBufferPointer({ EVP_CipherFinal_ex(context, $0.baseAddress! + Int(written), &finished) }) == 1
        else { throw CryptoFailure(encrypting ? name : "\(name) decryption (bad padding or key)") }
        return Array(out[0 ..< Int(written + finished)])
    }

    // MARK: Curve25519 and Ed25519

    /// The X25519 public key of a 32-byte private key.
    static func x25519PublicKey(privateKey: [UInt8]) throws -> [UInt8] {
        try publicKey(EVP_PKEY_X25519, privateKey: privateKey, name: "X25519 key")
    }

    /// The X25519 shared secret of our private key and their public key; fails for a public key
    /// of small order (an all-zero secret), which only a hostile peer sends.
    static func x25519SharedSecret(privateKey: [UInt8], peerPublicKey: [UInt8]) throws -> [UInt8] {
        guard peerPublicKey.count == 32 else { throw CryptoFailure("X25519 public key length") }
        let ours = try key(EVP_PKEY_X25519, privateKey: privateKey, name: "X25519 key")
        defer { EVP_PKEY_free(ours) }
        guard let theirs = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, nil, peerPublicKey, 32) else {
            throw CryptoFailure("X25519 public key")
        }
        defer { EVP_PKEY_free(theirs) }
        guard let context = EVP_PKEY_CTX_new(ours, nil) else { throw CryptoFailure("X25519") }
        defer { EVP_PKEY_CTX_free(context) }
        var secret = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, theirs) == 1,
              EVP_PKEY_derive(context, &secret, &length) == 1, length == 32
        else { throw CryptoFailure("X25519 agreement (a key of small order)") }
        return secret
    }

    /// An Ed25519 key made once from its seed, for signing many messages: making the key
    /// derives its public half (a scalar multiplication), as costly as a signature itself.
    final class SigningKey: @unchecked Sendable {
        // Immutable once made; OpenSSL 3 allows concurrent use of one key with separate contexts.
        fileprivate let pointer: OpaquePointer
        fileprivate init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { EVP_PKEY_free(pointer) }
    }

    /// The signing key of a 32-byte seed.
    static func ed25519SigningKey(seed: [UInt8]) throws -> SigningKey {
        SigningKey(try key(EVP_PKEY_ED25519, privateKey: seed, name: "Ed25519 key"))
    }

    /// The public key of a signing key.
    static func ed25519PublicKey(of key: SigningKey) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_raw_public_key(key.pointer, &out, &length) == 1, length == 32 else { throw CryptoFailure("Ed25519 key") }
        return out
    }

    /// The Ed25519 signature of `message` by `key`.
    static func ed25519Sign(key: SigningKey, message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoFailure("Ed25519 signing") }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: 64)
        var length = 64
        guard EVP_DigestSignInit(context, nil, nil, nil, key.pointer) == 1,
              message.withUnsafeBytes({ EVP_DigestSign(context, &signature, &length, $0.baseAddress, message.count) }) == 1,
              length == 64
        else { throw CryptoFailure("Ed25519 signing") }
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    static func ed25519Verify(publicKey: [UInt8], message: [UInt8], signature: [UInt8]) -> Bool {
        guard publicKey.count == 32, signature.count == 64,
              let pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, 32) else { return false }
        defer { EVP_PKEY_free(pkey) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, pkey) == 1 else { return false }
        return message.withUnsafeBytes { EVP_DigestVerify(context, signature, 64, $0.baseAddress, message.count) } == 1
    }

    private static func key(_ type: Int32, privateKey: [UInt8], name: String) throws -> OpaquePointer {
        guard privateKey.count == 32, let pkey = EVP_PKEY_new_raw_private_key(type, nil, privateKey, 32) else {
            throw CryptoFailure(name)
        }
        return pkey
    }

    private static func publicKey(_ type: Int32, privateKey: [UInt8], name: String) throws -> [UInt8] {
        let pkey = try key(type, privateKey: privateKey, name: name)
        defer { EVP_PKEY_free(pkey) }
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_raw_public_key(pkey, &out, &length) == 1, length == 32 else { throw CryptoFailure(name) }
        return out
    }
}
