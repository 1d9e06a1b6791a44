/// Which domain labels may be shown in Unicode, after the browsers' IDN display policy
/// (Chromium's rules, simplified): a label that could pass for another name is shown in
/// punycode, so `[bank](https://xn--80ak6aa92e.com/)` never reads as `аррӏе.com`.
enum IDNDisplayPolicy {
    /// Whether a label (Unicode, lower case) may be shown as it is, in a host whose top-level
    /// label (Unicode) is `topLevel`:
    /// - letters, marks and digits only (no symbols, punctuation, invisible joiners, ß or ς);
    /// - one script (plus Common and Inherited), or Latin with Han and the kana (Japanese),
    ///   with Han and Bopomofo (Chinese), or with Han and Hangul (Korean);
    /// - not a whole-script look-alike: a Cyrillic or Greek label made only of letters that
    ///   look Latin, unless the top-level domain is one where that script is written.
    static func showsUnicode(_ label: String, topLevel: String) -> Bool {
        let scalars = Array(label.unicodeScalars)
        guard let first = scalars.first, !isMark(first) else { return false }
        var scripts: Set<UnicodeScript> = []
        for scalar in scalars {
            guard isAllowed(scalar), let script = UnicodeScript.of(scalar) else { return false }
            if script != .common && script != .inherited { scripts.insert(script) }
        }
        guard scripts.count <= 1 || allowedMixes.contains(where: { scripts.isSubset(of: $0) }) else { return false }
        return !isWholeScriptLookalike(scalars, scripts: scripts, topLevel: topLevel)
    }

    /// The mixes of scripts that languages write (UTS 39's "highly restrictive" level).
    private static let allowedMixes: [Set<UnicodeScript>] = [
        [.latin, .han, .hiragana, .katakana], [.latin, .han, .bopomofo], [.latin, .han, .hangul],
    ]

    /// IDNA 2003 and 2008 map these differently, so one name could lead to two hosts.
    private static let deviations: Set<Unicode.Scalar> = ["\u{DF}", "\u{3C2}", "\u{200C}", "\u{200D}"]

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
        }
        guard !deviations.contains(scalar) else { return false }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber: return true
        default: return false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
    }

    /// Letters of a script that look like Latin ones (`а` `с` `е` `о` `р` `ӏ`…, `ο` `ι` `κ` `ν`…),
    /// and the top-level domains where that script is at home.
    private static let lookalikes: [UnicodeScript: (letters: Set<Unicode.Scalar>, topLevels: Set<String>)] = [
        .cyrillic: (Set("асԁеԍһіјӏорԛѕԝхуъьҽпгѵѡ".unicodeScalars), ["bg", "by", "kz", "mk", "rs", "ru", "su", "ua", "uz"]),
        .greek: (Set("αικνορυωχ".unicodeScalars), ["gr", "cy"]),
    ]

    private static func isWholeScriptLookalike(_ scalars: [Unicode.Scalar], scripts: Set<UnicodeScript>, topLevel: String) -> Bool {
        guard scripts.count == 1, let script = scripts.first, let set = lookalikes[script] else { return false }
        // Digits and hyphens are Common: only the letters decide.
        let letters = scalars.filter { UnicodeScript.of($0) == script }
        guard letters.allSatisfy(set.letters.contains) else { return false }
        let homeTopLevel = set.topLevels.contains(topLevel)
            || (!topLevel.isEmpty && topLevel.unicodeScalars.allSatisfy { UnicodeScript.of($0) == script })
        return !homeTopLevel
    }
}
