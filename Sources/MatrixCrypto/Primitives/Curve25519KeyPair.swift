/// An X25519 key pair: identity and one-time keys, Olm's ratchet keys.
public struct Curve25519KeyPair: Sendable {
    /// The 32-byte private key, as generated (X25519 clamps it when it is used).
    public let privateKey: [UInt8]
    /// The 32-byte public key.
    public let publicKey: [UInt8]

    /// The pair of a private key; throws if it is not 32 bytes.
    public init(privateKey: [UInt8]) throws {
        self.privateKey = privateKey
        self.publicKey = try LibCrypto.x25519PublicKey(privateKey: privateKey)
    }

    /// A new pair from 32 bytes of `random`.
    public init(random: inout some RandomSource) throws {
        try self.init(privateKey: random.bytes(32))
    }

    /// The shared secret with `publicKey` (X25519); throws for a key of small order.
    public func sharedSecret(with publicKey: [UInt8]) throws -> [UInt8] {
        try LibCrypto.x25519SharedSecret(privateKey: privateKey, peerPublicKey: publicKey)
    }
}

/// Printing, dumping or a test failure shows the public key only, never the private one.
extension Curve25519KeyPair: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Curve25519KeyPair(public \(UnpaddedBase64.encode(publicKey)))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": UnpaddedBase64.encode(publicKey)]) }
}
