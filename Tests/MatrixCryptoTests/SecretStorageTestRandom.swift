import MatrixCrypto
import ThreadModel

/// Random bytes for secret storage's and cross-signing's tests: from a seed, so a failure repeats.
struct SecretStorageTestRandom: RandomSource {
    var seeded: SeededRandom

    init(seed: UInt64) { seeded = SeededRandom(seed: seed) }

    mutating func bytes(_ count: Int) throws -> [UInt8] {
        (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &seeded) }
    }
}
