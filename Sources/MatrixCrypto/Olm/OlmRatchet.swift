/// Olm's double ratchet (docs/olm.md): a root key, our sending chain, the chains we receive on
/// and the keys of messages skipped on them. Bounded as libolm bounds it: 5 receiving chains,
/// 40 skipped message keys (the oldest go first), at most 2000 messages skipped at once.
/// A value: `decrypt` changes it only when the message decrypts.
struct OlmRatchet: Codable, Equatable, Sendable {
    static let maxReceiverChains = 5
    static let maxSkippedMessageKeys = 40
    static let maxMessageGap: UInt32 = 2000

    /// A chain key C(i,j) and its index j.
    struct ChainKey: Codable, Equatable, Sendable {
        @OlmBase64Coded var key: [UInt8]
        var index: UInt32

        /// M(i,j) = HMAC(C(i,j), 0x01).
        var messageKey: [UInt8] { get throws(OlmDecryptionError) { try Self.hmac(key, 1) } }

        /// C(i,j+1) = HMAC(C(i,j), 0x02).
        func advanced() throws(OlmDecryptionError) -> ChainKey { ChainKey(key: try Self.hmac(key, 2), index: index &+ 1) }

        /// HMAC of the one byte, a library failure said as a decryption error (the step is
        /// shared by sending and receiving, and both throw).
        private static func hmac(_ key: [UInt8], _ byte: UInt8) throws(OlmDecryptionError) -> [UInt8] {
            do { return try Digest.hmacSHA256(key: key, data: [byte]) } catch {
                throw OlmDecryptionError(.libraryFailure, "HMAC-SHA-256")
            }
        }
    }

    /// The chain we send on, with the ratchet key pair that started it.
    struct SenderChain: Codable, Equatable, Sendable {
        @OlmBase64Coded var ratchetPrivateKey: [UInt8]
        @OlmBase64Coded var ratchetPublicKey: [UInt8]
        var chainKey: ChainKey
    }

    /// A chain we receive on, named by the sender's ratchet public key.
    struct ReceiverChain: Codable, Equatable, Sendable {
        @OlmBase64Coded var ratchetKey: [UInt8]
        var chainKey: ChainKey
    }

    /// The key of a message we skipped, kept until it arrives (or is pushed out).
    struct SkippedMessageKey: Codable, Equatable, Sendable {
        @OlmBase64Coded var ratchetKey: [UInt8]
        var index: UInt32
        @OlmBase64Coded var messageKey: [UInt8]
    }

    @OlmBase64Coded private(set) var rootKey: [UInt8]
    private(set) var senderChain: SenderChain?
    /// Newest first.
    private(set) var receiverChains: [ReceiverChain]
    /// Newest first.
    private(set) var skippedMessageKeys: [SkippedMessageKey]

    /// R(0) and C(0,0) from the triple-DH secret: HKDF-SHA-256 with info "OLM_ROOT".
    private static func rootAndChain(sharedSecret: [UInt8]) throws -> ([UInt8], ChainKey) {
        let derived = try KeyDerivation.hkdfSHA256(key: sharedSecret, salt: [], info: Array("OLM_ROOT".utf8), length: 64)
        return (Array(derived[0 ..< 32]), ChainKey(key: Array(derived[32 ..< 64]), index: 0))
    }

    /// The session's creator: it sends first, on a chain of its own ratchet key.
    static func alice(sharedSecret: [UInt8], ratchetKey: Curve25519KeyPair) throws -> OlmRatchet {
        let (root, chain) = try rootAndChain(sharedSecret: sharedSecret)
        let sender = SenderChain(ratchetPrivateKey: ratchetKey.privateKey, ratchetPublicKey: ratchetKey.publicKey, chainKey: chain)
        return OlmRatchet(rootKey: root, senderChain: sender, receiverChains: [], skippedMessageKeys: [])
    }

    /// The receiver of a pre-key message: it receives on the sender's ratchet key first.
    static func bob(sharedSecret: [UInt8], theirRatchetKey: [UInt8]) throws -> OlmRatchet {
        let (root, chain) = try rootAndChain(sharedSecret: sharedSecret)
        let receiver = ReceiverChain(ratchetKey: theirRatchetKey, chainKey: chain)
        return OlmRatchet(rootKey: root, senderChain: nil, receiverChains: [receiver], skippedMessageKeys: [])
    }

    /// R(i) and C(i,0) from R(i-1) and a new ratchet DH: HKDF-SHA-256 salted with the root key,
    /// info "OLM_RATCHET".
    private static func advanceRoot(_ rootKey: [UInt8], ourPrivateKey: [UInt8], theirPublicKey: [UInt8]) throws -> ([UInt8], ChainKey) {
        // Straight to the agreement: a key pair would also compute a public key no one needs.
        let secret = try LibCrypto.x25519SharedSecret(privateKey: ourPrivateKey, peerPublicKey: theirPublicKey)
        let derived = try KeyDerivation.hkdfSHA256(key: secret, salt: rootKey, info: Array("OLM_RATCHET".utf8), length: 64)
        return (Array(derived[0 ..< 32]), ChainKey(key: Array(derived[32 ..< 64]), index: 0))
    }

    /// How many random bytes the next `encrypt` takes: a new ratchet key after we received.
    var encryptRandomLength: Int { senderChain == nil ? 32 : 0 }

    /// The framed, MACed normal message of `plaintext`, on a new chain if we have just received.
    mutating func encrypt(_ plaintext: [UInt8], random: inout some RandomSource) throws -> [UInt8] {
        if senderChain == nil {
            guard let theirs = receiverChains.first else { throw CryptoFailure("Olm encryption (no chain to reply on)") }
            let ratchetKey = try Curve25519KeyPair(random: &random)
            let (root, chain) = try Self.advanceRoot(rootKey, ourPrivateKey: ratchetKey.privateKey, theirPublicKey: theirs.ratchetKey)
            rootKey = root
            senderChain = SenderChain(ratchetPrivateKey: ratchetKey.privateKey, ratchetPublicKey: ratchetKey.publicKey, chainKey: chain)
        }
        guard var sender = senderChain else { throw CryptoFailure("Olm encryption") }
        let cipher = try OlmMessageCipher(messageKey: sender.chainKey.messageKey)
        let message = try cipher.seal(plaintext, ratchetKey: sender.ratchetPublicKey, counter: sender.chainKey.index)
        sender.chainKey = try sender.chainKey.advanced()
        senderChain = sender
        return message
    }

    /// The plaintext of a normal message; the ratchet moves on only if it decrypts.
    mutating func decrypt(_ bytes: [UInt8]) throws(OlmDecryptionError) -> [UInt8] {
        let (message, covered, mac) = try OlmMessage.decode(bytes)
        if let chainIndex = receiverChains.firstIndex(where: { $0.ratchetKey == message.ratchetKey }) {
            let chain = receiverChains[chainIndex].chainKey
            if message.counter < chain.index {
                return try decryptSkipped(message, covered: covered, mac: mac)
            }
            let (plaintext, advanced, skipped) = try Self.decrypt(message, covered: covered, mac: mac, on: chain)
            receiverChains[chainIndex].chainKey = advanced
            try keepSkipped(skipped, ratchetKey: message.ratchetKey)
            return plaintext
        }
        // A new chain: they have received our messages and ratcheted.
        guard let sender = senderChain else {
            throw OlmDecryptionError(.unexpectedRatchetKey, "a new ratchet key before we sent on this session")
        }
        guard message.counter <= Self.maxMessageGap else { throw OlmDecryptionError(.tooFarAhead, "more than \(Self.maxMessageGap) messages skipped") }
        let root: [UInt8], start: ChainKey
        do {
            (root, start) = try Self.advanceRoot(rootKey, ourPrivateKey: sender.ratchetPrivateKey, theirPublicKey: message.ratchetKey)
        } catch {
            throw OlmDecryptionError(.invalidKey, "the ratchet key")
        }
        let (plaintext, advanced, skipped) = try Self.decrypt(message, covered: covered, mac: mac, on: start)
        rootKey = root
        senderChain = nil
        receiverChains.insert(ReceiverChain(ratchetKey: message.ratchetKey, chainKey: advanced), at: 0)
        if receiverChains.count > Self.maxReceiverChains { receiverChains.removeLast() }
        try keepSkipped(skipped, ratchetKey: message.ratchetKey)
        return plaintext
    }

    /// Decrypts with the key at the message's index on `chain`; returns the chain just past it
    /// and the keys of the messages skipped on the way (oldest first).
    private static func decrypt(_ message: OlmMessage, covered: ArraySlice<UInt8>, mac: [UInt8], on chain: ChainKey)
        throws(OlmDecryptionError) -> ([UInt8], ChainKey, [ChainKey]) {
        guard message.counter - chain.index <= maxMessageGap else {
            throw OlmDecryptionError(.tooFarAhead, "more than \(maxMessageGap) messages skipped")
        }
        var chain = chain
        var skipped: [ChainKey] = []
        while chain.index < message.counter {
            skipped.append(chain)
            chain = try chain.advanced()
        }
        let plaintext = try open(message, covered: covered, mac: mac, messageKey: try chain.messageKey)
        // Only the newest skipped keys would be kept; the older ones need not be stored.
        return (plaintext, try chain.advanced(), Array(skipped.suffix(maxSkippedMessageKeys)))
    }

    private static func open(_ message: OlmMessage, covered: ArraySlice<UInt8>, mac: [UInt8], messageKey: [UInt8]) throws(OlmDecryptionError) -> [UInt8] {
        let cipher: OlmMessageCipher
        do { cipher = try OlmMessageCipher(messageKey: messageKey) } catch { throw OlmDecryptionError(.badMAC, "key derivation") }
        return try cipher.open(message, covered: covered, mac: mac)
    }

    private mutating func decryptSkipped(_ message: OlmMessage, covered: ArraySlice<UInt8>, mac: [UInt8]) throws(OlmDecryptionError) -> [UInt8] {
        guard let index = skippedMessageKeys.firstIndex(where: { $0.index == message.counter && $0.ratchetKey == message.ratchetKey }) else {
            throw OlmDecryptionError(.duplicateOrTooOld, "message \(message.counter) of its chain")
        }
        let plaintext = try Self.open(message, covered: covered, mac: mac, messageKey: skippedMessageKeys[index].messageKey)
        skippedMessageKeys.remove(at: index)
        return plaintext
    }

    /// Keeps the skipped keys (oldest first) newest first, dropping the oldest past the bound.
    private mutating func keepSkipped(_ skipped: [ChainKey], ratchetKey: [UInt8]) throws(OlmDecryptionError) {
        for chain in skipped {
            skippedMessageKeys.insert(SkippedMessageKey(ratchetKey: ratchetKey, index: chain.index, messageKey: try chain.messageKey), at: 0)
        }
        if skippedMessageKeys.count > Self.maxSkippedMessageKeys {
            skippedMessageKeys.removeLast(skippedMessageKeys.count - Self.maxSkippedMessageKeys)
        }
    }

    /// Throws when a stored ratchet does not hold together (keys of the wrong length, more chains
    /// or skipped keys than the bounds): a damaged store, never to be used.
    func _checkInvariants() throws {
        func check(_ ok: Bool, _ what: String) throws { if !ok { throw CryptoFailure("Olm ratchet state (\(what))") } }
        try check(rootKey.count == 32, "root key")
        if let sender = senderChain {
            try check(sender.ratchetPrivateKey.count == 32 && sender.ratchetPublicKey.count == 32 && sender.chainKey.key.count == 32, "sending chain")
        }
        try check(senderChain != nil || !receiverChains.isEmpty, "no chain at all")
        try check(receiverChains.count <= Self.maxReceiverChains, "too many receiving chains")
        try check(receiverChains.allSatisfy { $0.ratchetKey.count == 32 && $0.chainKey.key.count == 32 }, "receiving chain")
        try check(skippedMessageKeys.count <= Self.maxSkippedMessageKeys, "too many skipped keys")
        try check(skippedMessageKeys.allSatisfy { $0.ratchetKey.count == 32 && $0.messageKey.count == 32 }, "skipped key")
    }
}

/// Printing or dumping a ratchet shows how many chains it holds, never a key.
extension OlmRatchet: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var description: String {
        "OlmRatchet(\(receiverChains.count) receiver chains, \(skippedMessageKeys.count) skipped message keys)"
    }
    var debugDescription: String { description }
    var customMirror: Mirror {
        Mirror(self, children: ["receiverChains": receiverChains.count, "skippedMessageKeys": skippedMessageKeys.count])
    }
}
