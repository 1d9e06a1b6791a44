import Foundation

/// What the layout shows of a link's target next to its text.
enum LinkHost {
    /// A URL's host as shown: each label in Unicode where that is safe to read, else in punycode.
    struct Display: Equatable {
        /// The host to show (`bücher.de`, `xn--80ak6aa92e.com`), without `www.`.
        var host: String
        /// The URL, with its host in punycode where a label is (what the status bar names).
        var url: String
        /// Whether a label is in punycode because in Unicode it could pass for another name.
        var isPunycodeForSafety: Bool
    }

    /// Longer labels are no DNS labels; and decoding is quadratic in the length.
    private static let maximumLabelLength = 63
    private static let asciiLabelCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789-")

    /// Whether the text already shows the target (an autolink, or text that is the URL).
    static func textShowsTarget(_ text: String, url: String) -> Bool {
        let bare = { (s: String) -> String in
            var s = s.lowercased()
            for scheme in ["https://", "http://", "mailto:"] where s.hasPrefix(scheme) { s.removeFirst(scheme.count) }
            while s.hasSuffix("/") { s.removeLast() }
            return s
        }
        guard bare(text) == bare(url) else { return false }
        // An autolink in look-alike letters shows those letters: its punycode host must follow.
        return text.allSatisfy(\.isASCII) || display(of: url)?.isPunycodeForSafety != true
    }

    /// The host of a URL (`example.com`), or the URL itself, shortened, when it has none.
    static func host(of url: String) -> String {
        display(of: url)?.host ?? TextFit.cut(url, to: 40)
    }

    /// How a URL's host is shown; nil when the URL has no host (`mailto:`, a relative link).
    static func display(of url: String) -> Display? {
        guard let range = hostRange(in: url) else { return nil }
        let written = String(url[range])
        if written.utf8.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "%") }) {
            // Plain ASCII, nothing escaped (most hosts): every step below leaves it as it is but
            // the lower case, unless a label is punycode to decode.
            var host = written.lowercased()
            if !host.contains("xn--") {
                if host.hasPrefix("www.") { host.removeFirst(4) }
                return Display(host: host, url: url, isPunycodeForSafety: false)
            }
        }
        // Roughly what browsers do first (UTS 46): percent-escapes decoded, compatibility forms
        // folded (fullwidth letters), lower case, ideographic full stops as dots.
        let mapped = (written.removingPercentEncoding ?? written).precomposedStringWithCompatibilityMapping.lowercased()
        let labels = mapped.split(separator: ".", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "。", omittingEmptySubsequences: false)
        }.map(String.init)
        let topLevel = labels.last.map { forms(of: $0).unicode } ?? ""
        var shown: [String] = [], ascii: [String] = []
        var isSpoof = false
        for label in labels {
            let forms = forms(of: label)
            ascii.append(forms.ascii)
            if forms.unicode == forms.ascii {
                shown.append(forms.ascii)
            } else if forms.isValid, IDNDisplayPolicy.showsUnicode(forms.unicode, topLevel: topLevel) {
                shown.append(forms.unicode)
            } else {
                shown.append(forms.ascii)
                isSpoof = true
            }
        }
        var host = shown.joined(separator: ".")
        if host.hasPrefix("www.") { host.removeFirst(4) }
        var shownURL = url
        if isSpoof { shownURL.replaceSubrange(range, with: ascii.joined(separator: ".")) }
        return Display(host: host, url: shownURL, isPunycodeForSafety: isSpoof)
    }

    /// A label in Unicode (`xn--` labels decoded) and in ASCII (Unicode ones encoded), and
    /// whether it is one a browser would accept (else its ASCII form is an escape of it).
    private static func forms(of label: String) -> (unicode: String, ascii: String, isValid: Bool) {
        let isASCII = label.unicodeScalars.allSatisfy(\.isASCII)
        if isASCII {
            guard label.hasPrefix("xn--"), label.count <= maximumLabelLength,
                  let decoded = Punycode.decode(String(label.dropFirst(4))),
                  !decoded.unicodeScalars.allSatisfy(\.isASCII) else { return (label, label, true) }
            return (decoded, label, true)
        }
        guard label.unicodeScalars.count <= maximumLabelLength, let encoded = Punycode.encode(label) else {
            return (label, label.addingPercentEncoding(withAllowedCharacters: asciiLabelCharacters) ?? "?", false)
        }
        return (label, "xn--" + encoded, true)
    }

    /// Where the host is in a URL written `scheme://[user@]host[:port][/…]`, as written.
    private static func hostRange(in url: String) -> Range<String.Index>? {
        guard let separator = url.range(of: "://"), !url[..<separator.lowerBound].isEmpty,
              url[..<separator.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        let authority = separator.upperBound..<(url[separator.upperBound...].firstIndex { "/?#\\".contains($0) } ?? url.endIndex)
        var start = authority.lowerBound
        if let at = url[authority].lastIndex(of: "@") { start = url.index(after: at) }
        var end = authority.upperBound
        if url[start..<end].hasPrefix("[") {
            // An IPv6 address: shown as written.
            if let close = url[start..<end].firstIndex(of: "]") { end = url.index(after: close) }
        } else if let colon = url[start..<end].lastIndex(of: ":") {
            end = colon
        }
        return start < end ? start..<end : nil
    }
}
