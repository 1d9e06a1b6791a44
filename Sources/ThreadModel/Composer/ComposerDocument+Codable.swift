import Foundation

/// Why a stored draft could not be read back.
struct ComposerDocumentDecodingError: Error, CustomStringConvertible, Sendable {
    /// What was wrong, for the log.
    let message: String
    var description: String { "Could not restore the draft: \(message)" }
}

/// Why `_checkInvariants` failed.
struct ComposerInvariantViolation: Error, CustomStringConvertible, Sendable {
    let message: String
    var description: String { message }
}

extension ComposerDocument {
    /// The stored form: text runs with their formats and mention, the selection as Character
    /// offsets. Formats are stored by name, so a name this version does not know is dropped on
    /// restore rather than failing it.
    struct Archive: Codable {
        struct Run: Codable {
            var text: String
            var formats: [String]?
            var mention: String?
        }
        var version: Int
        var runs: [Run]
        var selection: [Int]
        var caretAtStart: Bool?
        /// The id of the comment this draft was being sent as, written before the send: a
        /// draft restored after a crash whose comment is in the thread was sent and is dropped.
        var sending: String?
    }

    /// Only the `sending` field of a stored draft.
    private struct SendingArchive: Decodable {
        var sending: String?
    }

    /// The id of the comment a stored draft was being sent as, if it was (see `encoded(sending:)`).
    public static func sendingID(inEncoded data: Data) -> String? {
        (try? JSONDecoder().decode(SendingArchive.self, from: data))?.sending
    }

    /// The draft as JSON, for saving it between sessions; `sending` marks it as being sent as
    /// that comment.
    public func encoded(sending: String? = nil) -> Data {
        var runs: [Archive.Run] = []
        for run in text.runs {
            let formats = ComposerFormat.allCases.filter(ComposerFormatting.formats(in: run.attributes).contains)
            // Runs start and end on Character boundaries: their UTF-8 is their text, copied
            // at once (a walk over the Characters took most of a 1 MB draft's save).
            runs.append(Archive.Run(text: String(decoding: text.utf8[run.range], as: UTF8.self),
                                    formats: formats.isEmpty ? nil : formats.map(\.rawValue),
                                    mention: run[CommentAttributes.MentionAttribute.self]))
        }
        let offsets = selectedOffsets
        let archive = Archive(version: 1, runs: runs, selection: [offsets.lowerBound, offsets.upperBound],
                              caretAtStart: caretAtStart ? true : nil, sending: sending)
        // Encoding plain strings, ints and arrays cannot fail.
        return (try? JSONEncoder().encode(archive)) ?? Data()
    }

    /// Restores a draft saved by `encoded()`: attributes outside `formatting` are stripped and
    /// the selection is clamped to the text (and moved out of mentions).
    public init(decoding data: Data, formatting: ComposerFormatting = .standard) throws {
        let archive: Archive
        do {
            archive = try JSONDecoder().decode(Archive.self, from: data)
        } catch let error as DecodingError {
            throw ComposerDocumentDecodingError(message: Self.describe(error))
        } catch {
            throw ComposerDocumentDecodingError(message: "\(error)")
        }
        guard archive.version == 1 else {
            throw ComposerDocumentDecodingError(message: "unknown draft version \(archive.version)")
        }
        guard archive.selection.count == 2 else {
            throw ComposerDocumentDecodingError(message: "the selection needs 2 offsets, found \(archive.selection.count)")
        }
        var text = AttributedString()
        for run in archive.runs {
            let formats = Set((run.formats ?? []).compactMap(ComposerFormat.init(rawValue:)))
            text.append(AttributedString(run.text, attributes: formatting.attributes(formats: formats, mention: run.mention)))
        }
        self.init(text, formatting: formatting)
        let count = string.count
        let a = min(max(0, archive.selection[0]), count), b = min(max(0, archive.selection[1]), count)
        select(min(a, b)..<max(a, b), caretAtStart: archive.caretAtStart ?? false)
        // A draft is restored at start-up, before the first key: one that edits could trap on is
        // refused (and set aside by the caller) rather than allowed to crash the client again.
        do {
            try _checkInvariants()
        } catch {
            throw ComposerDocumentDecodingError(message: "\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context): return "not valid JSON at \(path(context))"
        case .keyNotFound(let key, let context): return "missing \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context): return "expected \(type) at \(path(context))"
        case .valueNotFound(let type, let context): return "missing \(type) at \(path(context))"
        @unknown default: return "\(error)"
        }
    }

    /// Checks what every edit must keep true: the selection within the text, on Character
    /// boundaries and at no point inside a mention; attribute runs (mentions among them) on
    /// whole Characters; nothing outside the allow-list on the text. For tests and for vetting a restored draft.
    ///
    /// Boundaries are counted on a plain `String`, independently of the document's own index
    /// arithmetic, and nothing here can trap on a broken document.
    func _checkInvariants() throws {
        func fail(_ message: String) throws -> Never { throw ComposerInvariantViolation(message: message) }
        guard selection.lowerBound >= text.startIndex, selection.upperBound <= text.endIndex else {
            try fail("selection out of bounds")
        }
        let plain = string
        var boundaries = Set(plain.indices.map { plain.utf8.distance(from: plain.startIndex, to: $0) })
        boundaries.insert(plain.utf8.count)
        func utf8Offset(_ i: Index) -> Int { text.utf8.distance(from: text.startIndex, to: i) }
        // The text's own Character view must agree, walked either way: what draws the composer
        // (and `AttributedString` itself) steps with it.
        var forward: [Int] = [], backward: [Int] = []
        var i = text.startIndex
        while i < text.endIndex { forward.append(utf8Offset(i)); i = text.characters.index(after: i) }
        i = text.endIndex
        while i > text.startIndex { i = text.characters.index(before: i); backward.append(utf8Offset(i)) }
        let expected = plain.indices.map { plain.utf8.distance(from: plain.startIndex, to: $0) }
        if forward != expected || backward.reversed() != expected {
            try fail("the text's Character view breaks at \(forward) forward and \(Array(backward.reversed())) back, String at \(expected)")
        }
        for end in [selection.lowerBound, selection.upperBound] where !boundaries.contains(utf8Offset(end)) {
            try fail("selection end at UTF-8 offset \(utf8Offset(end)) is inside a Character")
        }
        for run in text.runs where !boundaries.contains(utf8Offset(run.range.lowerBound)) {
            try fail("a run of attributes starts inside a Character at UTF-8 offset \(utf8Offset(run.range.lowerBound))")
        }
        for end in [selection.lowerBound, selection.upperBound] {
            if let run = mentionRun(at: end), run.lowerBound < end {
                try fail("selection end at offset \(offset(of: end)) is inside a mention")
            }
        }
        if caretAtStart, selection.isEmpty { try fail("an empty selection has no caret side") }
        for run in text.runs where run.attributes != formatting.allowedPart(of: run.attributes) {
            try fail("attributes outside the allow-list at offset \(offset(of: run.range.lowerBound)): \(run.attributes)")
        }
    }
}
