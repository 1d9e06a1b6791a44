/// The writing system of a character that may appear in a domain name, from the Unicode
/// blocks of the scripts in use (Swift has no Script property). Coarse on purpose: it is asked
/// only about letters, marks and digits, and a character outside these blocks (IPA letters,
/// historic scripts, symbols) has no script here, which shows its host in punycode.
enum UnicodeScript: Hashable {
    case common, inherited
    case latin, greek, cyrillic, armenian, hebrew, arabic, syriac, thaana, nko
    case devanagari, bengali, gurmukhi, gujarati, oriya, tamil, telugu, kannada, malayalam, sinhala
    case thai, lao, tibetan, myanmar, georgian, hangul, ethiopic, cherokee, canadianAboriginal
    case khmer, mongolian, hiragana, katakana, bopomofo, han

    /// The script of a scalar; nil for one outside the known blocks.
    static func of(_ scalar: Unicode.Scalar) -> UnicodeScript? {
        let value = scalar.value
        if value < 0x80 {
            return scalar.properties.isAlphabetic ? .latin : .common
        }
        // Binary search over ranges sorted by their start.
        var low = 0, high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let (range, script) = ranges[middle]
            if value < range.lowerBound { high = middle - 1 } else if value > range.upperBound { low = middle + 1 } else { return script }
        }
        return nil
    }

    private static let ranges: [(ClosedRange<UInt32>, UnicodeScript)] = [
        (0x00AA...0x00AA, .latin), (0x00B5...0x00B5, .common), (0x00BA...0x00BA, .latin),
        (0x00C0...0x024F, .latin),
        // 0250–02FF (IPA, modifier letters) left out: look-alikes of Latin letters (ɡ, ɑ, ʀ).
        (0x0300...0x036F, .inherited),
        (0x0370...0x03FF, .greek), (0x0400...0x052F, .cyrillic), (0x0531...0x058F, .armenian),
        (0x0591...0x05FF, .hebrew), (0x0600...0x06FF, .arabic), (0x0700...0x074F, .syriac),
        (0x0750...0x077F, .arabic), (0x0780...0x07BF, .thaana), (0x07C0...0x07FF, .nko),
        (0x08A0...0x08FF, .arabic),
        (0x0900...0x097F, .devanagari), (0x0980...0x09FF, .bengali), (0x0A00...0x0A7F, .gurmukhi),
        (0x0A80...0x0AFF, .gujarati), (0x0B00...0x0B7F, .oriya), (0x0B80...0x0BFF, .tamil),
        (0x0C00...0x0C7F, .telugu), (0x0C80...0x0CFF, .kannada), (0x0D00...0x0D7F, .malayalam),
        (0x0D80...0x0DFF, .sinhala), (0x0E00...0x0E7F, .thai), (0x0E80...0x0EFF, .lao),
        (0x0F00...0x0FFF, .tibetan), (0x1000...0x109F, .myanmar), (0x10A0...0x10FF, .georgian),
        (0x1100...0x11FF, .hangul), (0x1200...0x139F, .ethiopic), (0x13A0...0x13FF, .cherokee),
        (0x1400...0x167F, .canadianAboriginal), (0x1780...0x17FF, .khmer), (0x1800...0x18AF, .mongolian),
        (0x1AB0...0x1AFF, .inherited), (0x1C80...0x1C8F, .cyrillic), (0x1C90...0x1CBF, .georgian),
        (0x1DC0...0x1DFF, .inherited), (0x1E00...0x1EFF, .latin), (0x1F00...0x1FFF, .greek),
        (0x2D00...0x2D2F, .georgian), (0x2D80...0x2DDF, .ethiopic), (0x2DE0...0x2DFF, .cyrillic),
        (0x3005...0x3005, .han), (0x3007...0x3007, .han), (0x3021...0x3029, .han),
        (0x3041...0x309F, .hiragana), (0x30A0...0x30FA, .katakana), (0x30FC...0x30FF, .katakana),
        (0x3105...0x312F, .bopomofo), (0x3131...0x318F, .hangul), (0x31A0...0x31BF, .bopomofo),
        (0x31F0...0x31FF, .katakana), (0x3400...0x4DBF, .han), (0x4E00...0x9FFF, .han),
        (0xA640...0xA69F, .cyrillic), (0xA960...0xA97F, .hangul), (0xAB30...0xAB6F, .latin),
        (0xAB70...0xABBF, .cherokee), (0xAC00...0xD7FF, .hangul), (0xF900...0xFAFF, .han),
        (0xFE20...0xFE2F, .inherited), (0x20000...0x2FA1F, .han), (0x30000...0x323AF, .han),
    ]
}
