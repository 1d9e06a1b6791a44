/// Converts incoming Matrix message text into our Markdown source, so the one comment renderer,
/// search and thread-file export show Matrix rooms like any thread.
///
/// Every character of the message's text is written escaped, so it shows literally: markup in
/// the message is never read as ours, and no tag or control character reaches the output except
/// as visible text.
public enum MatrixHTMLReader {
    /// Input beyond this many UTF-8 bytes is cut off (an ellipsis paragraph marks the cut):
    /// Matrix events are at most 64 KiB, so only hostile input is cut.
    static let maximumInputBytes = 256 * 1024

    /// Link schemes the Matrix spec lets clients show; any other link shows as its text.
    static let permittedSchemes: Set<String> = ["http", "https", "ftp", "mailto", "magnet"]

    /// Our Markdown for a `formatted_body` in `org.matrix.custom.html`; pills become `@handle`
    /// mentions where `handleForUserID` knows the user.
    public static func markdown(fromHTML html: String, handleForUserID: (String) -> String?) -> String {
        let (text, truncated) = bounded(html)
        let tree = MatrixHTMLTree(parsing: withNewlines(text))
        return withoutActuallyEscaping(handleForUserID) { handles in
            var builder = MatrixMarkdownBuilder(tree: tree, handleForUserID: handles)
            builder.build(truncated: truncated)
            return source(builder.blocks)
        }
    }

    /// Our Markdown for a plain `body`, shown literally; with `isReply` the quoted reply
    /// fallback at its start is dropped. Blank lines separate paragraphs, other newlines are
    /// line breaks; leading spaces and tabs of a line stay, trailing ones go.
    public static func markdown(fromPlainText text: String, isReply: Bool) -> String {
        let (bounded, truncated) = bounded(text)
        var lines = withNewlines(bounded).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if isReply { lines = withoutReplyFallback(lines) }
        var paragraphs: [[String]] = [[]]
        for line in lines {
            var scalars = Substring(line).unicodeScalars
            while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
            if scalars.isEmpty {
                if paragraphs[paragraphs.count - 1].isEmpty == false { paragraphs.append([]) }
                continue
            }
            // Leading blanks as references: the parser drops literal ones at a line's start.
            var encoded = ""
            while let first = scalars.first, first == " " || first == "\t" {
                encoded += first == " " ? "&#32;" : "&#9;"
                scalars.removeFirst()
            }
            encoded += MatrixInlineMarkdown.escape(VisibleControls.sanitize(String(scalars)))
            paragraphs[paragraphs.count - 1].append(encoded)
        }
        if truncated { paragraphs.append(["…"]) }
        return paragraphs.filter { !$0.isEmpty }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    // MARK: Links

    /// The user id a `https://matrix.to/#/@user:server` permalink (also percent-encoded) points to.
    static func userID(fromPermalink href: String) -> String? {
        let url = href.trimmingHTMLSpace()
        guard let rest = ["https://matrix.to/#/", "http://matrix.to/#/"].lazy
                .compactMap({ url.droppingASCIIPrefix($0) }).first else { return nil }
        let identifier = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let id = percentDecoded(String(identifier)), id.hasPrefix("@"), id.contains(":"), id.utf8.count <= 255,
              id.unicodeScalars.allSatisfy({ $0.value > 0x20 && VisibleControls.placeholder(for: $0, hasBase: false) == nil && $0 != "/" })
        else { return nil }
        return id
    }

    /// `href` when it is an absolute link of a permitted scheme, with whitespace and invisible
    /// characters percent-encoded; nil for anything else (`javascript:`, relative links).
    static func permittedLink(_ href: String) -> String? {
        let url = href.trimmingHTMLSpace()
        guard let colon = url.unicodeScalars.firstIndex(of: ":") else { return nil }
        let scheme = String(url.unicodeScalars[..<colon]).lowercased()
        guard permittedSchemes.contains(scheme), url.unicodeScalars.index(after: colon) != url.unicodeScalars.endIndex else { return nil }
        var out = ""
        for c in url.unicodeScalars {
            if c.value <= 0x20 || c.value == 0x7F || VisibleControls.placeholder(for: c, hasBase: false) != nil {
                for byte in String(c).utf8 { out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true) }
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    // MARK: Source

    private static func source(_ blocks: [MatrixMarkdownBuilder.Block]) -> String {
        var out = ""
        var previousItem: (list: Int, depth: Int)?
        var previousDepth = 0
        // The quotes both blocks are in: a quote that starts between them is a new one.
        var sharedQuotes = Int.max
        for block in blocks {
            var lines: [String]
            let depth: Int
            var item: (list: Int, depth: Int)?
            switch block {
            case .quoteStart(let quoteDepth):
                sharedQuotes = min(sharedQuotes, quoteDepth)
                continue
            case .inline(let pieces, let quoteDepth, let marker):
                depth = quoteDepth
                lines = MatrixInlineMarkdown.markdown(pieces).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if let marker {
                    let symbol = marker.ordered ? "\(marker.number)." : "-"
                    lines[0] = lines[0].isEmpty ? symbol : symbol + " " + lines[0]
                    item = (marker.list, quoteDepth)
                }
            case .code(let info, let text, let quoteDepth):
                depth = quoteDepth
                let fence = String(repeating: "`", count: max(3, MatrixInlineMarkdown.longestBacktickRun(in: text) + 1))
                lines = [fence + info] + text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + [fence]
            }
            if !out.isEmpty {
                // Items of one list stay together; a blank line ends any other block (and a list).
                // It keeps the `>` of the quotes both blocks are in, or it would end them too.
                let sameList = item.map { current in previousItem.map { $0 == current } ?? false } ?? false
                let shared = min(previousDepth, depth, sharedQuotes)
                out += sameList ? "\n" : "\n" + String(repeating: "> ", count: shared).trimmingHTMLSpace() + "\n"
            }
            sharedQuotes = Int.max
            let prefix = String(repeating: "> ", count: depth)
            out += lines.map { prefix + $0 }.joined(separator: "\n")
            previousItem = item
            previousDepth = depth
        }
        return out
    }

    // MARK: Input

    /// At most `maximumInputBytes` of `text`, cut at a scalar boundary, and whether it was cut.
    private static func bounded(_ text: String) -> (String, Bool) {
        guard text.utf8.count > maximumInputBytes else { return (text, false) }
        var out = String.UnicodeScalarView()
        var bytes = 0
        for c in text.unicodeScalars {
            bytes += UTF8.width(c)
            if bytes > maximumInputBytes { break }
            out.append(c)
        }
        return (String(out), true)
    }

    /// CR LF and lone CR as LF, as HTML and our block parser both read them.
    private static func withNewlines(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for c in text.unicodeScalars {
            if c == "\n", previousCR { previousCR = false; continue }
            previousCR = c == "\r"
            out.append(previousCR ? "\n" : c)
        }
        return String(out)
    }

    /// Without the `> `-quoted lines a reply starts with and the blank line after them.
    private static func withoutReplyFallback(_ lines: [String]) -> [String] {
        func isQuote(_ line: String) -> Bool { line == ">" || line.hasPrefix("> ") }
        guard let first = lines.first, isQuote(first) else { return lines }
        var k = 0
        while k < lines.count, isQuote(lines[k]) { k += 1 }
        if k < lines.count, lines[k].isEmpty { k += 1 }
        return Array(lines[k...])
    }
}

private extension String {
    func trimmingHTMLSpace() -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        let s = unicodeScalars
        guard let first = s.firstIndex(where: { !isSpace($0) }), let last = s.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(s[first...last])
    }

    /// The rest after `prefix` (ASCII, lowercase), compared ignoring ASCII case; nil without it.
    func droppingASCIIPrefix(_ prefix: String) -> String? {
        var s = unicodeScalars[...]
        for p in prefix.unicodeScalars {
            guard let c = s.popFirst() else { return nil }
            let lower = (0x41...0x5A).contains(c.value) ? c.value + 0x20 : c.value
            guard lower == p.value else { return nil }
        }
        return String(s)
    }
}
