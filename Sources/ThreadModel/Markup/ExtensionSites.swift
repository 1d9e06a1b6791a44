/// Where in a comment body the characters of our two extensions (`||spoilers||` and
/// `{ruby|readings}`) are, as the parser finds them: offsets in Unicode scalars into the body,
/// so that a backslash can go in front of any of them.
enum ExtensionSites {
    /// In order: the delimiters of the spoilers and ruby annotations that form (`.markup`), or
    /// every `{`, `|` and `}` that is plain text, as on GitHub (`.text`).
    static func offsets(in body: String, reading extensions: ExtensionSyntax) -> [Int] {
        let (sources, definitions) = MarkupDocument.sources(of: body)
        let lineStarts = lineStarts(of: body)
        var offsets: [Int] = []
        for source in sources {
            if case .codeBlock = source.role { continue }
            // Mentions cannot hold these characters nor change how they pair: no handles needed.
            var parser = InlineParser(source.inlineText, handles: { _ in nil }, references: definitions, extensions: extensions)
            parser.parse()
            let found = extensions == .markup ? parser.formedExtensionDelimiters : parser.extensionCharactersAsText
            guard !found.isEmpty else { continue }
            // The text is the lines joined by "\n": one walk over them places every index.
            var line = 0
            var lineStart = 0
            var lineLength = source.lines[0].text.unicodeScalars.count
            for index in found.sorted() {
                while index >= lineStart + lineLength {
                    lineStart += lineLength + 1
                    line += 1
                    lineLength = source.lines[line].text.unicodeScalars.count
                }
                let origin = source.lines[line]
                offsets.append(lineStarts[origin.line] + origin.column + index - lineStart)
            }
        }
        return offsets.sorted()
    }

    /// The offset where each line of `body` starts; CR LF, CR and LF each end a line, as they do
    /// for `BlockParser`.
    private static func lineStarts(of body: String) -> [Int] {
        var starts = [0]
        var offset = 0
        var previousCR = false
        for c in body.unicodeScalars {
            offset += 1
            if c == "\n", previousCR {
                // The LF of a CR LF: the line the CR ended starts after it instead.
                starts[starts.count - 1] = offset
            } else if c == "\n" || c == "\r" {
                starts.append(offset)
            }
            previousCR = c == "\r"
        }
        return starts
    }
}
