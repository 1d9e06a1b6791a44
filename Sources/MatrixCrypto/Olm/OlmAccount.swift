/// A device's Olm account: its identity keys (Ed25519 to sign, Curve25519 for Olm), its
/// one-time keys and its fallback key, as libolm keeps them, so that the same random bytes
/// give the same keys and key ids. A value: the caller stores it (it is `Codable`) after every
/// change, and publishes what `unpublishedOneTimeKeys`/`unpublishedFallbackKey` name.
public struct OlmAccount: Codable, Equatable, Sendable {
    /// As many one-time keys as the account keeps; generating more drops the oldest.
    public static let maxOneTimeKeys = 100

    /// A one-time or fallback key with its id (libolm's counter, shared by both kinds).
    struct OneTimeKey: Codable, Equatable, Sendable {
        var id: UInt32
        @OlmBase64Coded var privateKey: [UInt8]
        @OlmBase64Coded var publicKey: [UInt8]
        var published: Bool
    }

    private(set) var ed25519Seed: [UInt8]
    /// The Ed25519 public key: the device's fingerprint key, which signs its keys.
    public private(set) var ed25519Key: [UInt8]
    private(set) var curve25519PrivateKey: [UInt8]
    /// The Curve25519 public identity key: the device's Olm address (`sender_key`).
    public private(set) var curve25519Key: [UInt8]
    /// Newest first, as libolm lists them.
    private(set) var oneTimeKeys: [OneTimeKey]
    private(set) var fallbackKey: OneTimeKey?

    /// Whether the account has a current fallback key (published or not).
    public var hasFallbackKey: Bool { fallbackKey != nil }
    /// The fallback key before the current one, kept for messages already under way.
    private(set) var previousFallbackKey: OneTimeKey?
    private(set) var lastKeyID: UInt32

    /// A new account from 64 bytes of `random`: the Ed25519 seed, then the Curve25519 private
    /// key, in libolm's order.
    public init(random: inout some RandomSource) throws {
        let signing = try Ed25519KeyPair(random: &random)
        let identity = try Curve25519KeyPair(random: &random)
        ed25519Seed = signing.seed
        ed25519Key = signing.publicKey
        curve25519PrivateKey = identity.privateKey
        curve25519Key = identity.publicKey
        oneTimeKeys = []
        lastKeyID = 0
    }

    private enum CodingKeys: String, CodingKey {
        case ed25519Seed, ed25519Key, curve25519PrivateKey, curve25519Key
        case oneTimeKeys, fallbackKey, previousFallbackKey, lastKeyID
    }

    /// A stored account; throws when it does not hold together (see `_checkInvariants`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ed25519Seed = try container.decode(OlmBase64Coded.self, forKey: .ed25519Seed).wrappedValue
        ed25519Key = try container.decode(OlmBase64Coded.self, forKey: .ed25519Key).wrappedValue
        curve25519PrivateKey = try container.decode(OlmBase64Coded.self, forKey: .curve25519PrivateKey).wrappedValue
        curve25519Key = try container.decode(OlmBase64Coded.self, forKey: .curve25519Key).wrappedValue
        oneTimeKeys = try container.decode([OneTimeKey].self, forKey: .oneTimeKeys)
        fallbackKey = try container.decodeIfPresent(OneTimeKey.self, forKey: .fallbackKey)
        previousFallbackKey = try container.decodeIfPresent(OneTimeKey.self, forKey: .previousFallbackKey)
        lastKeyID = try container.decode(UInt32.self, forKey: .lastKeyID)
        try _checkInvariants()
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(OlmBase64Coded(wrappedValue: ed25519Seed), forKey: .ed25519Seed)
        try container.encode(OlmBase64Coded(wrappedValue: ed25519Key), forKey: .ed25519Key)
        try container.encode(OlmBase64Coded(wrappedValue: curve25519PrivateKey), forKey: .curve25519PrivateKey)
        try container.encode(OlmBase64Coded(wrappedValue: curve25519Key), forKey: .curve25519Key)
        try container.encode(oneTimeKeys, forKey: .oneTimeKeys)
        try container.encodeIfPresent(fallbackKey, forKey: .fallbackKey)
        try container.encodeIfPresent(previousFallbackKey, forKey: .previousFallbackKey)
        try container.encode(lastKeyID, forKey: .lastKeyID)
    }

    /// Throws when the account does not hold together: a public key that is not its private
    /// key's, too many one-time keys, an id above the counter. A damaged store, never to be used.
    func _checkInvariants() throws {
        func check(_ ok: Bool, _ what: String) throws { if !ok { throw CryptoFailure("Olm account state (\(what))") } }
        try check(try Ed25519KeyPair(seed: ed25519Seed).publicKey == ed25519Key, "Ed25519 key")
        try check(try Curve25519KeyPair(privateKey: curve25519PrivateKey).publicKey == curve25519Key, "Curve25519 key")
        try check(oneTimeKeys.count <= Self.maxOneTimeKeys, "too many one-time keys")
        let keys = oneTimeKeys + [fallbackKey, previousFallbackKey].compactMap { $0 }
        try check(keys.allSatisfy { $0.privateKey.count == 32 && $0.publicKey.count == 32 && $0.id <= lastKeyID }, "one-time key")
        try check(Set(keys.map(\.id)).count == keys.count, "two keys with one id")
    }

    /// The identity key pair Olm's triple DH uses.
    var identityKeyPair: Curve25519KeyPair { get throws { try Curve25519KeyPair(privateKey: curve25519PrivateKey) } }

    /// The signing key pair.
    var signingKeyPair: Ed25519KeyPair { get throws { try Ed25519KeyPair(seed: ed25519Seed) } }

    /// The device's Ed25519 signature of `message`.
    public func sign(_ message: [UInt8]) throws -> [UInt8] { try signingKeyPair.sign(message) }

    // MARK: One-time keys

    /// Adds `count` one-time keys (32 random bytes each), unpublished; past `maxOneTimeKeys` the
    /// oldest go.
    public mutating func generateOneTimeKeys(_ count: Int, random: inout some RandomSource) throws {
        for _ in 0 ..< count {
            let pair = try Curve25519KeyPair(random: &random)
            lastKeyID &+= 1
            oneTimeKeys.insert(OneTimeKey(id: lastKeyID, privateKey: pair.privateKey, publicKey: pair.publicKey, published: false), at: 0)
        }
        if oneTimeKeys.count > Self.maxOneTimeKeys { oneTimeKeys.removeLast(oneTimeKeys.count - Self.maxOneTimeKeys) }
    }

    /// The one-time keys not yet published, newest first.
    public var unpublishedOneTimeKeys: [OlmPublicKey] {
        oneTimeKeys.filter { !$0.published }.map { OlmPublicKey(id: $0.id, publicKey: $0.publicKey) }
    }

    /// How many one-time keys the account holds (published and not).
    public var oneTimeKeyCount: Int { oneTimeKeys.count }

    /// Marks every one-time key and the current fallback key published; returns how many
    /// one-time keys were not before.
    @discardableResult
    public mutating func markKeysAsPublished() -> Int {
        let count = oneTimeKeys.count(where: { !$0.published })
        for index in oneTimeKeys.indices { oneTimeKeys[index].published = true }
        fallbackKey?.published = true
        return count
    }

    /// Removes the one-time key `session` was made with, once its first message decrypted; a
    /// fallback key stays (it serves until replaced). False when the account does not hold it.
    @discardableResult
    public mutating func removeOneTimeKey(usedBy session: OlmSession) -> Bool {
        let used = session.bobOneTimeKey
        if let index = oneTimeKeys.firstIndex(where: { $0.publicKey == used }) {
            oneTimeKeys.remove(at: index)
            return true
        }
        return fallbackKey?.publicKey == used || previousFallbackKey?.publicKey == used
    }

    /// The key pair of our one-time or fallback key `publicKey`, if we hold it.
    func oneTimeKeyPair(for publicKey: [UInt8]) -> Curve25519KeyPair? {
        let key = oneTimeKeys.first { $0.publicKey == publicKey }
            ?? [fallbackKey, previousFallbackKey].compactMap { $0 }.first { $0.publicKey == publicKey }
        return key.flatMap { try? Curve25519KeyPair(privateKey: $0.privateKey) }
    }

    // MARK: Fallback key

    /// A new fallback key (32 random bytes), unpublished; the current one becomes the previous,
    /// still usable until `forgetOldFallbackKey`.
    public mutating func generateFallbackKey(random: inout some RandomSource) throws {
        let pair = try Curve25519KeyPair(random: &random)
        lastKeyID &+= 1
        previousFallbackKey = fallbackKey
        fallbackKey = OneTimeKey(id: lastKeyID, privateKey: pair.privateKey, publicKey: pair.publicKey, published: false)
    }

    /// The current fallback key if it is not yet published.
    public var unpublishedFallbackKey: OlmPublicKey? {
        guard let key = fallbackKey, !key.published else { return nil }
        return OlmPublicKey(id: key.id, publicKey: key.publicKey)
    }

    /// The current fallback key, published or not.
    public var currentFallbackKey: OlmPublicKey? { fallbackKey.map { OlmPublicKey(id: $0.id, publicKey: $0.publicKey) } }

    /// Forgets the previous fallback key (once senders have had time to see the new one).
    public mutating func forgetOldFallbackKey() { previousFallbackKey = nil }
}

/// A one-time or fallback public key with the id it is published under.
public struct OlmPublicKey: Equatable, Sendable {
    /// libolm's counter; the key id is its four big-endian bytes in unpadded base64.
    public let id: UInt32
    public let publicKey: [UInt8]

    /// The key id as published, e.g. "AAAAAQ" for 1.
    public var keyID: String {
        UnpaddedBase64.encode([UInt8(id >> 24), UInt8(id >> 16 & 0xff), UInt8(id >> 8 & 0xff), UInt8(id & 0xff)])
    }

    /// The public key in unpadded base64.
    public var base64: String { UnpaddedBase64.encode(publicKey) }
}

/// Printing, dumping or a test failure shows the identity's public keys and how many one-time
/// keys it holds, never a private key.
extension OlmAccount: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "OlmAccount(\(UnpaddedBase64.encode(curve25519Key)), \(oneTimeKeys.count) one-time keys)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["ed25519Key": UnpaddedBase64.encode(ed25519Key), "curve25519Key": UnpaddedBase64.encode(curve25519Key),
                                "oneTimeKeyCount": oneTimeKeys.count, "hasFallbackKey": fallbackKey != nil])
    }
}
