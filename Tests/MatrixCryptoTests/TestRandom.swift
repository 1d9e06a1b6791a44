import MatrixCrypto
import ThreadModel

/// Random bytes served from a list, so libolm and our code can be handed the very same bytes;
/// asking for more than the list holds is a test error.
struct FixedRandom: RandomSource {
    private var remaining: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { remaining = bytes[...] }

    var isExhausted: Bool { remaining.isEmpty }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard remaining.count >= count else { throw CryptoFailure("test random bytes ran out") }
        defer { remaining = remaining.dropFirst(count) }
        return Array(remaining.prefix(count))
    }
}

/// Random bytes from a seed, so a failure repeats.
struct SeededBytes: RandomSource {
    var seeded: SeededRandom

    init(seed: UInt64) { seeded = SeededRandom(seed: seed) }

    mutating func bytes(_ count: Int) throws -> [UInt8] { (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) } }
}
