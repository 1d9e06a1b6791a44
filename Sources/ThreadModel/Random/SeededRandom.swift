/// A seeded random number generator (SplitMix64): the same numbers for the same seed, on every
/// run and platform, for the `generate` verb, benchmarks and randomized tests.
///
/// Small and fast, not cryptographic. Changing its arithmetic changes every generated thread.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (bound > 0), by remainder: the generator's own, stable mapping.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
