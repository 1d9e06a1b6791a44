/// The secret two devices share after exchanging the ephemeral keys of one SAS verification
/// (`curve25519-hkdf-sha256`): X25519 of our ephemeral private key and theirs, from which the
/// short authentication string's bytes and the MACs are derived, as libolm's `OlmSAS` and
/// vodozemac's `EstablishedSas` do.
public struct EstablishedSas: Sendable {
    /// The X25519 shared secret. Never printed.
    private let sharedSecret: [UInt8]

    /// The secret of `ours` (our ephemeral pair) and `theirPublicKey` (the 32 bytes of their
    /// `m.key.verification.key`); throws for a key that is not 32 bytes or of small order.
    public init(ours: Curve25519KeyPair, theirPublicKey: [UInt8]) throws {
        guard theirPublicKey.count == 32 else { throw CryptoFailure("the other device's verification key is not 32 bytes") }
        sharedSecret = try ours.sharedSecret(with: theirPublicKey)
    }

    /// `count` bytes of HKDF-SHA-256 over the secret, no salt, `info` as given (`SasInfo.sas`):
    /// what libolm's `olm_sas_generate_bytes` gives.
    public func bytes(info: String, count: Int) throws -> [UInt8] {
        try KeyDerivation.hkdfSHA256(key: sharedSecret, salt: [], info: Array(info.utf8), length: count)
    }

    /// The `hkdf-hmac-sha256.v2` MAC of `input` (unpadded base64): HMAC-SHA-256 under 32 bytes of
    /// HKDF with `info` (`SasInfo.mac`), as libolm's `olm_sas_calculate_mac_fixed_base64`.
    public func mac(of input: String, info: String) throws -> String {
        let key = try bytes(info: info, count: 32)
        return UnpaddedBase64.encode(try Digest.hmacSHA256(key: key, data: Array(input.utf8)))
    }

    /// Whether `received` is the MAC of `input` under `info`, compared in constant time.
    public func macMatches(_ received: String, of input: String, info: String) -> Bool {
        guard let expected = try? mac(of: input, info: info) else { return false }
        return ConstantTime.equal(Array(expected.utf8), Array(received.utf8))
    }
}

/// Printing or dumping never shows the secret.
extension EstablishedSas: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "EstablishedSas(secret not shown)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
