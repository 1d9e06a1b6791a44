/// Character classes the CommonMark spec defines, by scalar.
extension Unicode.Scalar {
    var isASCIIPunctuation: Bool {
        switch value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return true
        default: return false
        }
    }

    /// Unicode whitespace as CommonMark defines it (Zs, tab, line feed, form feed, return).
    var isMarkdownWhitespace: Bool {
        switch value {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: return true
        // No other ASCII is Zs; the category lookup costs more than the rest of a scan.
        case 0..<0x80: return false
        default: return properties.generalCategory == .spaceSeparator
        }
    }

    /// Unicode punctuation as CommonMark 0.31.2 defines it (general categories P and S).
    var isMarkdownPunctuation: Bool {
        if value < 0x80 { return isASCIIPunctuation }
        switch properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    var isWordCharacter: Bool {
        if value < 0x80 {
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
        }
        return properties.isAlphabetic || properties.numericType != nil
    }

    var isASCIIAlphanumeric: Bool {
        (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
    }
}
