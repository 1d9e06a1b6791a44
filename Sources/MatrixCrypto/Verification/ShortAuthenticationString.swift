/// The short authentication string two people compare, in both of the spec's forms: seven
/// emoji (42 bits, 6 per emoji) and three numbers from 1000 to 9191 (39 bits, 13 each), made
/// from the six bytes `EstablishedSas.bytes(info: SasInfo.sas(...), count: 6)` gives.
public struct ShortAuthenticationString: Sendable, Equatable {
    /// The seven emoji, in order.
    public let emoji: [SasEmoji]
    /// The three numbers, in order.
    public let decimals: [Int]

    /// The forms of `bytes`, which must be at least six (the first six are used).
    public init(bytes: [UInt8]) throws {
        guard bytes.count >= 6 else { throw CryptoFailure("a short authentication string needs 6 bytes") }
        let b = bytes.prefix(6).map(Int.init)
        decimals = [
            (b[0] << 5 | b[1] >> 3) + 1000,
            ((b[1] & 0x7) << 10 | b[2] << 2 | b[3] >> 6) + 1000,
            ((b[3] & 0x3F) << 7 | b[4] >> 1) + 1000,
        ]
        // The 48 bits as one number; its top 42 bits are the seven 6-bit indices.
        let bits = b.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        emoji = (0 ..< 7).map { SasEmoji.table[Int((bits >> UInt64(42 - 6 * $0)) & 0x3F)] }
    }

    /// The numbers as a person reads them aloud: `1234 5678 9012`.
    public var decimalText: String { decimals.map(String.init).joined(separator: " ") }
}
