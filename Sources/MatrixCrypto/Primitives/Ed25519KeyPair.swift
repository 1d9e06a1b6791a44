/// An Ed25519 signing key: a device's fingerprint key, cross-signing keys.
public struct Ed25519KeyPair: Sendable {
    /// The 32-byte seed (RFC 8032's private key).
    public let seed: [UInt8]
    /// The 32-byte public key.
    public let publicKey: [UInt8]
    /// OpenSSL's key, made once: every signature reuses it.
    private let key: LibCrypto.SigningKey

    /// The pair of a seed; throws if it is not 32 bytes.
    public init(seed: [UInt8]) throws {
        self.seed = seed
        key = try LibCrypto.ed25519SigningKey(seed: seed)
        publicKey = try LibCrypto.ed25519PublicKey(of: key)
    }

    /// A new pair from 32 bytes of `random`.
    public init(random: inout some RandomSource) throws {
        try self.init(seed: random.bytes(32))
    }

    /// The 64-byte signature of `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] {
        try LibCrypto.ed25519Sign(key: key, message: message)
    }

    /// Whether `signature` is `publicKey`'s valid signature of `message`.
    public static func verify(signature: [UInt8], of message: [UInt8], by publicKey: [UInt8]) -> Bool {
        LibCrypto.ed25519Verify(publicKey: publicKey, message: message, signature: signature)
    }
}

/// Printing, dumping or a test failure shows the public key only, never the seed.
extension Ed25519KeyPair: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Ed25519KeyPair(public \(UnpaddedBase64.encode(publicKey)))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": UnpaddedBase64.encode(publicKey)]) }
}
