/// The part of a comment body the client parses and lays out: the first
/// `FeedLayout.shownBodyBytes`, or as far as the reader asked to see (`FeedLayout.limit(after:)`).
///
/// A body can be as long as a line the reader takes (8 MiB, from another writer or a server);
/// parsing and laying one out costs over a hundred bytes per byte, so only a prefix is, and the
/// rest waits behind "show more" (a step of at most `FeedLayout.showMoreBytes`). The prefix ends at a line break when one is near the limit, else
/// between characters (never inside one).
struct ShownBody {
    /// The text to parse and lay out.
    let text: String
    /// UTF-8 bytes of the body left out (0: the body is whole).
    let hiddenBytes: Int

    /// `body` cut to at most `limit` UTF-8 bytes.
    init(_ body: String, limit: Int) { self.init(body[...], limit: limit) }

    /// `body` (the rest of a body, `ShownParts`) cut to at most `limit` UTF-8 bytes.
    init(_ body: Substring, limit: Int) {
        let utf8 = body.utf8
        guard utf8.count > limit else {
            text = String(body)
            hiddenBytes = 0
            return
        }
        let limitIndex = utf8.index(utf8.startIndex, offsetBy: max(0, limit))
        // A line break in the last eighth: the cut falls between lines, as the writer broke them.
        let lookBack = utf8.index(limitIndex, offsetBy: -min(limit / 8, limit))
        var prefix: Substring
        if let newline = utf8[lookBack..<limitIndex].lastIndex(of: 0x0A) {
            prefix = body[..<newline]
        } else {
            // Slicing rounds down to a scalar boundary; the last character may still be cut
            // short (a flag, a family emoji), so it goes too.
            prefix = body[..<limitIndex]
            if !prefix.isEmpty { prefix = prefix.dropLast() }
        }
        text = String(prefix)
        hiddenBytes = utf8.count - prefix.utf8.count
    }

    /// "5.9 MB" or "48 KB": how much is left out, for the marker.
    static func describe(bytes: Int) -> String {
        if bytes >= 1_000_000 { return "\((Double(bytes) / 100_000).rounded() / 10) MB" }
        return "\(max(1, (bytes + 999) / 1_000)) KB"
    }
}
