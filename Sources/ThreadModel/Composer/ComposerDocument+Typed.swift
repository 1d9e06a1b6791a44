import Foundation

extension ComposerDocument {
    /// Typed text as a draft would hold it: `@handle` of a known user at the start of a word
    /// becomes a mention token; everything else stays as typed (Markdown included).
    public static func typed(_ text: String, handles: (String) -> String?, formatting: ComposerFormatting = .standard) -> AttributedString {
        let clean = ComposerFormatting.sanitizePlainText(text)
        var result = AttributedString()
        var plain = ""
        var rest = Substring(clean)
        var previous: Character?
        while let first = rest.first {
            if first == "@", previous.map({ $0.isWhitespace || $0.isPunctuation && $0 != "@" }) ?? true {
                let handle = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || "-_.".contains($0) }
                // A trailing dot ends a sentence, not the handle.
                let trimmed = handle.hasSuffix(".") ? handle.dropLast() : handle
                if !trimmed.isEmpty, let id = handles(String(trimmed)) {
                    result.append(AttributedString(plain))
                    plain = ""
                    result.append(AttributedString("@" + trimmed, attributes: formatting.attributes(formats: [], mention: id)))
                    rest = rest.dropFirst(1 + trimmed.count)
                    previous = trimmed.last
                    continue
                }
            }
            plain.append(first)
            previous = first
            rest = rest.dropFirst()
        }
        result.append(AttributedString(plain))
        return result
    }

    /// Replaces the whole draft with typed text (from the external editor), as one undoable edit,
    /// the caret at its end.
    public mutating func replaceAll(withTyped text: String, handles: (String) -> String?) {
        selectAll()
        insert(Self.typed(text, handles: handles, formatting: formatting))
    }
}
