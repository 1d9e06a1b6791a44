import Foundation

/// Text as Ctrl-S compares it: without case or diacritics, as UTF-8 bytes, so a query is found
/// with a byte search (`Zoë` finds `zoe`, `ZOE` and `zoë`; `straße` finds `STRASSE`).
///
/// Each character is folded on its own: its upper then lower case (which turns `ß` into `ss`
/// and `ﬁ` into `fi`, as full case folding does), decomposed, without its nonspacing marks.
/// The same folding serves the query, a decoded body, a thread file's raw line and the cells
/// of a laid-out comment, so whichever of them a match is looked for in, it is the same match.
/// ASCII folds by a table; other characters once each, then from a cache.
public final class SearchFolding {
    private var cache: [UInt32: [UInt8]] = [:]

    public init() {}

    /// Appends one character's folded bytes (none for a nonspacing mark).
    @inline(__always)
    public func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        if scalar.value < 0x80 { return out.append(Self.lowerASCII(UInt8(scalar.value))) }
        out.append(contentsOf: folded(scalar))
    }

    /// The folded bytes of a character above ASCII (cached).
    @inline(__always)
    func folded(_ scalar: Unicode.Scalar) -> [UInt8] {
        if let folded = cache[scalar.value] { return folded }
        let folded = Self.fold(scalar)
        cache[scalar.value] = folded
        return folded
    }

    /// An ASCII byte's lower case, computed rather than looked up: the raw scan's inner loop.
    @inline(__always)
    static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// The folded bytes of a text.
    public func fold(_ text: some StringProtocol) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// One character above ASCII, folded.
    private static func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
        var out: [UInt8] = []
        let cased = String(scalar).uppercased().lowercased()
        for part in cased.decomposedStringWithCanonicalMapping.unicodeScalars where part.properties.generalCategory != .nonspacingMark {
            out.append(contentsOf: String(part).lowercased().utf8)
        }
        return out
    }
}
