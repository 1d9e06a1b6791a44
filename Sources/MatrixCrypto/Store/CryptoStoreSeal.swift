/// The two keys that seal the store's records, HKDF-separated from one master secret (the store
/// key, or the store key and the stretched passphrase), and the sealing itself: AES-256-CTR under
/// a fresh random IV, then HMAC-SHA-256 over the clear context, the IV and the ciphertext
/// (encrypt-then-MAC). Opening checks the MAC in constant time before decrypting a byte.
struct CryptoStoreSeal {
    /// The sealed form's fixed overhead: IV and MAC.
    static let overhead = ivLength + macLength
    static let ivLength = 16
    static let macLength = 32

    private let encryptionKey: [UInt8]
    private let macKey: [UInt8]

    /// The keys for `master` in the store with `salt` (the store's own random salt, so two stores
    /// under one key never share sealing keys).
    init(master: [UInt8], salt: [UInt8]) throws {
        encryptionKey = try KeyDerivation.hkdfSHA256(key: master, salt: salt, info: Array("comment-tui crypto store AES-256-CTR".utf8), length: 32)
        macKey = try KeyDerivation.hkdfSHA256(key: master, salt: salt, info: Array("comment-tui crypto store HMAC-SHA-256".utf8), length: 32)
    }

    /// `plaintext` sealed: IV, ciphertext, MAC. `context` (clear bytes stored beside it: a file
    /// header, a frame's generation and sequence) is covered by the MAC, not stored here.
    func seal(_ plaintext: [UInt8], context: [UInt8], random: inout any RandomSource) throws -> [UInt8] {
        let iv = try random.bytes(Self.ivLength)
        let ciphertext = try AES256.ctr(key: encryptionKey, iv: iv, data: plaintext)
        return try iv + ciphertext + mac(context: context, iv: iv, ciphertext: ciphertext)
    }

    /// The plaintext of `sealed`; nil when its MAC does not check (another key, a changed byte,
    /// a different context), in which case nothing was decrypted.
    func open(_ sealed: [UInt8], context: [UInt8]) throws -> [UInt8]? {
        guard sealed.count >= Self.overhead else { return nil }
        let iv = Array(sealed[0 ..< Self.ivLength])
        let ciphertext = Array(sealed[Self.ivLength ..< sealed.count - Self.macLength])
        let tag = Array(sealed[(sealed.count - Self.macLength)...])
        guard ConstantTime.equal(tag, try mac(context: context, iv: iv, ciphertext: ciphertext)) else { return nil }
        return try AES256.ctr(key: encryptionKey, iv: iv, data: ciphertext)
    }

    /// A MAC under the sealing MAC key of other bytes (a passphrase check, a frame's length).
    func check(_ bytes: [UInt8]) throws -> [UInt8] { try Digest.hmacSHA256(key: macKey, data: bytes) }

    private func mac(context: [UInt8], iv: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        // The context's length first, so no split of context and IV can be moved between them.
        var writer = StoreByteWriter()
        writer.appendLong(context)
        return try Digest.hmacSHA256(key: macKey, data: writer.bytes + iv + ciphertext)
    }
}
