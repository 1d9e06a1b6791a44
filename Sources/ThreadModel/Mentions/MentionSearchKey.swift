import Foundation

/// Case- and diacritic-folded Unicode scalars of a handle, name or query, compared as plain numbers.
///
/// Folding goes Character by Character so that every folded scalar knows which scalars of the
/// original string it came from (for highlighting); `String.folding` of a whole string gives the
/// same scalars, since case and diacritic folding never reach across a grapheme cluster.
struct MentionSearchKey {
    /// The folded scalar values.
    var scalars: [UInt32] = []
    /// For each folded scalar, the scalar offsets in the original string it came from; empty unless asked for.
    var origins: [Range<Int>] = []

    /// Folds `text`. With `separatorsAsSpace`, whitespace and punctuation all become a space, so that
    /// `Mary-Jane`, `mary_jane` and `mary jane` compare equal and word starts are easy to find.
    init(_ text: String, separatorsAsSpace: Bool, withOrigins: Bool = false) {
        scalars.reserveCapacity(text.utf8.count)
        if withOrigins { origins.reserveCapacity(text.utf8.count) }
        // Fast path: all-ASCII text (most handles and many names) needs no Foundation call at all.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for (offset, byte) in text.utf8.enumerated() {
                scalars.append(Self.foldASCII(UInt32(byte), separatorsAsSpace: separatorsAsSpace))
                if withOrigins { origins.append(offset..<offset + 1) }
            }
            return
        }
        var offset = 0
        for character in text {
            let count = character.unicodeScalars.count
            if count == 1, let only = character.unicodeScalars.first, only.isASCII {
                scalars.append(Self.foldASCII(only.value, separatorsAsSpace: separatorsAsSpace))
                if withOrigins { origins.append(offset..<offset + 1) }
            } else {
                let folded = String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                for scalar in folded.unicodeScalars {
                    let isSeparator = separatorsAsSpace && Self.isSeparator(scalar)
                    scalars.append(isSeparator ? Self.space : scalar.value)
                    if withOrigins { origins.append(offset..<offset + count) }
                }
            }
            offset += count
        }
    }

    static let space: UInt32 = 0x20

    /// A bit per scalar class (value mod 64): a key can only contain a query if it has all the query's bits.
    static func mask<C: Collection>(_ scalars: C) -> UInt64 where C.Element == UInt32 {
        scalars.reduce(0) { $0 | (1 << UInt64($1 & 63)) }
    }

    /// Offsets where a word starts in separator-folded scalars (a non-space after a space or at the start).
    static func wordStarts(_ scalars: [UInt32]) -> [Int] {
        scalars.indices.filter { scalars[$0] != space && ($0 == 0 || scalars[$0 - 1] == space) }
    }

    /// Offsets of a leftmost subsequence match of `query` in `key`, if any.
    static func subsequence(_ query: [UInt32], in key: [UInt32]) -> [Int]? {
        var positions: [Int] = []
        positions.reserveCapacity(query.count)
        var q = 0
        for (k, scalar) in key.enumerated() where q < query.count && scalar == query[q] {
            positions.append(k)
            q += 1
        }
        return q == query.count ? positions : nil
    }

    /// Merges the origins of the folded offsets into sorted, non-overlapping original scalar ranges.
    func originalRanges<S: Sequence>(of offsets: S) -> [Range<Int>] where S.Element == Int {
        var merged: [Range<Int>] = []
        for range in offsets.map({ origins[$0] }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    static func foldASCII(_ value: UInt32, separatorsAsSpace: Bool) -> UInt32 {
        switch value {
        case 0x41...0x5A: return value + 0x20
        case 0x30...0x39, 0x61...0x7A: return value
        default: return separatorsAsSpace ? space : value
        }
    }

    /// Whitespace and punctuation (`-`, `_`, `.`, `·`, `—`, quotes, brackets) split a name into words;
    /// symbols such as emoji do not, so an emoji is a word of its own when spaced.
    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return foldASCII(scalar.value, separatorsAsSpace: true) == space }
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation, .spaceSeparator:
            return true
        default:
            return false
        }
    }
}
