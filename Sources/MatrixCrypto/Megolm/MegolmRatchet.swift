/// Megolm's ratchet (docs/megolm.md, "The Megolm ratchet algorithm"): four 32-byte parts
/// R(i,0..3) and the index i. Part j is rehashed every 2^(8·(3−j)) steps, each part seeding the
/// ones after it, so any later index is reached in at most 4 × 255 HMACs, as libolm's
/// `megolm_advance_to`. It winds forwards only: an earlier index cannot be derived from it.
public struct MegolmRatchet: Sendable, Equatable {
    /// The length of the ratchet's state: four parts of 32 bytes.
    public static let byteCount = 128

    /// The index this state is the ratchet's value at.
    public private(set) var index: UInt32
    /// The four parts, concatenated (R(i,0) first): what the message keys derive from.
    public private(set) var bytes: [UInt8]

    /// The ratchet at `index` with the state `bytes` (128 bytes: random for a new session, or
    /// from a session key).
    public init(bytes: [UInt8], index: UInt32) throws {
        guard bytes.count == Self.byteCount else {
            throw MegolmFailure(.badFormat, "a Megolm ratchet is \(Self.byteCount) bytes, not \(bytes.count)")
        }
        self.bytes = bytes
        self.index = index
        _checkInvariants()
    }

    /// Advances by one index (the sender's step after each message). Wrapping past the last
    /// index is refused: a session that sent 2^32 − 1 messages must be replaced.
    public mutating func advance() throws {
        guard index < UInt32.max else { throw MegolmFailure(.unknownMessageIndex, "the ratchet is at its last index") }
        try advance(to: index + 1)
    }

    /// Advances to `target`, rehashing each part only as often as its place requires. An earlier
    /// index than ours is refused: the ratchet cannot be wound back. Throws `CryptoFailure` if the
    /// library fails.
    public mutating func advance(to target: UInt32) throws {
        guard target >= index else {
            throw MegolmFailure(.unknownMessageIndex, "the ratchet is at index \(index), past \(target)")
        }
        // On a copy, so a library failure part-way leaves this ratchet as it was.
        var advanced = self
        for part in 0 ..< 4 {
            let shift = UInt32(8 * (3 - part))
            // How often this part's byte of the index moves between here and the target.
            let steps = Int(((target >> shift) &- (advanced.index >> shift)) & 0xFF)
            guard steps > 0 else { continue }
            // Every step but the last rehashes only this part; the parts after it are rewritten
            // from it on the last step anyway.
            for _ in 1 ..< steps { try advanced.rehash(from: part, to: part) }
            // Later parts first: each is derived from this part's value before it changes.
            for later in stride(from: 3, through: part, by: -1) { try advanced.rehash(from: part, to: later) }
            advanced.index = target & ~((UInt32(1) << shift) &- 1)
        }
        self = advanced
        _checkInvariants()
    }

    /// R(·,to) = HMAC-SHA-256(key: R(·,from), data: the byte `to`).
    private mutating func rehash(from: Int, to: Int) throws {
        let key = Array(bytes[from * 32 ..< from * 32 + 32])
        bytes.replaceSubrange(to * 32 ..< to * 32 + 32, with: try Digest.hmacSHA256(key: key, data: [UInt8(to)]))
    }

    /// The state's length never changes.
    func _checkInvariants() {
        assert(bytes.count == Self.byteCount, "a Megolm ratchet of \(bytes.count) bytes")
    }
}

extension MegolmRatchet: Codable {
    private enum CodingKeys: String, CodingKey { case index, ratchet }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .ratchet)
        guard let bytes = UnpaddedBase64.decode(text), bytes.count == Self.byteCount else {
            throw DecodingError.dataCorruptedError(forKey: .ratchet, in: container, debugDescription: "not a Megolm ratchet")
        }
        try self.init(bytes: bytes, index: container.decode(UInt32.self, forKey: .index))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(UnpaddedBase64.encode(bytes), forKey: .ratchet)
    }
}

/// Printing or dumping a ratchet shows its index only: its bytes are every later message's key.
extension MegolmRatchet: CustomStringConvertible, CustomReflectable {
    public var description: String { "MegolmRatchet(index: \(index))" }
    public var customMirror: Mirror { Mirror(self, children: ["index": index]) }
}
