/// Where a key's or a message's random bytes come from. Injected, so the tests can feed
/// libolm and our code the same bytes and compare what each makes of them.
public protocol RandomSource {
    /// The next `count` random bytes.
    mutating func bytes(_ count: Int) throws -> [UInt8]
}

/// The system's random generator (OpenSSL's `RAND_bytes`): what the client uses.
public struct SystemRandom: RandomSource {
    public init() {}

    public mutating func bytes(_ count: Int) throws -> [UInt8] { try LibCrypto.randomBytes(count) }
}

/// Any random source as one concrete type, for a holder that keeps its source in a stored
/// property and hands it on to the generic (`inout some RandomSource`) calls.
public struct AnyRandomSource: RandomSource {
    private var base: any RandomSource

    public init(_ base: any RandomSource) { self.base = base }

    public mutating func bytes(_ count: Int) throws -> [UInt8] { try base.bytes(count) }
}
