import Foundation

/// The draft being written: attributed text, a selection, typing attributes and an undo history.
///
/// Formatting lives in `CommentAttributes`, a mention is one atomic unit (text `@handle`, value
/// the user id), and `markdown` writes the comment body. Indices are only ever carried across an
/// edit by `AttributedString.transform(updating:)` or recomputed: a stale `AttributedString.Index`
/// does not trap on Linux, it silently points elsewhere.
public struct ComposerDocument: Sendable {
    /// The text with its formatting and mentions.
    public internal(set) var text: AttributedString
    /// The selection; an empty range is the caret.
    public internal(set) var selection: Range<AttributedString.Index>
    /// Whether the caret (the moving end) is the selection's lower bound (after Shift+Left).
    var caretAtStart = false
    /// Formats the next typed text gets when set (a toggle with an empty selection); nil means
    /// "those of the text before the caret". Cleared whenever the caret moves.
    public internal(set) var typingFormats: Set<ComposerFormat>?
    /// What the kill commands removed last, for `yank`.
    public private(set) var killBuffer = AttributedString()
    /// The allow-list the text is held to.
    public let formatting: ComposerFormatting
    var history = ComposerHistory()

    /// A document holding `text` (stripped to the allow-list), caret at the end.
    public init(_ text: AttributedString = AttributedString(), formatting: ComposerFormatting = .standard) {
        self.formatting = formatting
        // Made afresh from one `String`: pieces appended one by one can leave stale breaks.
        let clean = formatting.sanitize(text)
        self.text = Self.attributedString(Self.pieces(of: clean[clean.startIndex..<clean.endIndex], dropping: [], at: 0))
        selection = self.text.endIndex..<self.text.endIndex
        // Runs put side by side (a restored draft, a rich paste) can join into one Character.
        alignRunsToCharacters()
        // A draft saved before tokens were kept apart as typed may hold one against a word.
        separateAllMentions()
        selection = self.text.endIndex..<self.text.endIndex
    }

    /// A document holding plain `text`, caret at the end.
    public init(text: String, formatting: ComposerFormatting = .standard) {
        self.init(AttributedString(text), formatting: formatting)
    }

    /// Whether there is no text.
    public var isEmpty: Bool { text.characters.isEmpty }

    /// The plain characters.
    public var string: String { String(text.characters) }

    /// The caret: the moving end of the selection.
    public var caret: AttributedString.Index { caretAtStart ? selection.lowerBound : selection.upperBound }

    /// The fixed end of the selection, where Shift+motion extends from.
    public var anchor: AttributedString.Index { caretAtStart ? selection.upperBound : selection.lowerBound }

    // MARK: Offsets

    /// The caret as a count of Characters before it.
    public var cursorOffset: Int { offset(of: caret) }

    /// The selection as Character offsets.
    var selectedOffsets: Range<Int> {
        let lower = offset(of: selection.lowerBound)
        let upper = selection.isEmpty ? lower : lower + String(decoding: text.utf8[selection], as: UTF8.self).count
        return lower..<upper
    }

    /// The Character offset of an index. Counted on a `String`: on Linux that is over ten times
    /// faster than `AttributedString.CharacterView.distance`, and it is made from the UTF-8
    /// bytes because a slice of the characters would round `index` by cached breaks.
    public func offset(of index: AttributedString.Index) -> Int {
        let offset = String(decoding: text.utf8[text.startIndex..<index], as: UTF8.self).count
        ComposerWholeReads.add(offset)
        return offset
    }

    /// The index at a Character offset (clamped), found through the UTF-8 view for the same reason.
    public func index(atOffset offset: Int) -> AttributedString.Index {
        guard offset > 0 else { return text.startIndex }
        let plain = string
        ComposerWholeReads.add(plain.utf8.count)
        guard let i = plain.index(plain.startIndex, offsetBy: offset, limitedBy: plain.endIndex) else { return text.endIndex }
        return text.utf8.index(text.startIndex, offsetBy: plain.utf8.distance(from: plain.startIndex, to: i))
    }

    /// Selects Character offsets (clamped; an end inside a mention moves out of it).
    public mutating func select(_ offsets: Range<Int>, caretAtStart: Bool = false) {
        let lower = mentionBoundary(index(atOffset: offsets.lowerBound), forward: false)
        // A caret inside a mention goes to its start; a selection grows to cover it.
        let upper = offsets.isEmpty ? lower : mentionBoundary(index(atOffset: offsets.upperBound), forward: true)
        setSelection(lower..<upper, caretAtStart: caretAtStart)
    }

    /// Sets the selection and forgets typing formats and typing coalescing (the caret moved).
    mutating func setSelection(_ range: Range<AttributedString.Index>, caretAtStart: Bool = false) {
        if range != selection { typingFormats = nil }
        selection = range
        self.caretAtStart = caretAtStart && !range.isEmpty
        history.breakCoalescing()
    }

    // MARK: Editing

    /// Inserts plain text (sanitized) in place of the selection, with the typing formats.
    public mutating func insert(_ s: String) {
        let clean = ComposerFormatting.sanitizePlainText(s)
        let typed = clean.count == 1 && selection.isEmpty
        guard !clean.isEmpty || !selection.isEmpty else { return }
        let piece = AttributedString(clean, attributes: formatting.attributes(formats: currentTypingFormats))
        let keep = typingFormats
        replace(selection, with: piece, kind: typed ? .typing(clean.first!) : .other)
        // Typed text continues with the formats it was typed with.
        typingFormats = keep
    }

    /// Inserts attributed text (stripped to the allow-list) in place of the selection: a rich paste.
    public mutating func insert(_ attributed: AttributedString) {
        let clean = formatting.sanitize(attributed)
        guard !clean.characters.isEmpty || !selection.isEmpty else { return }
        replace(selection, with: clean, kind: .other)
    }

    /// Inserts the mention `@handle` (then a plain space) in place of `replacing` (Character
    /// offsets, e.g. `mentionQuery`'s range) or of the selection.
    public mutating func insertMention(handle: String, userID: String, replacing: Range<Int>? = nil) {
        let range: Range<AttributedString.Index>
        if let replacing {
            range = mentionBoundary(index(atOffset: replacing.lowerBound), forward: false)
                ..< mentionBoundary(index(atOffset: replacing.upperBound), forward: true)
        } else {
            range = selection
        }
        insertMention(handle: handle, userID: userID, over: range)
    }

    /// Inserts the mention `@handle` (then a plain space) in place of `range`.
    mutating func insertMention(handle: String, userID: String, over range: Range<AttributedString.Index>) {
        let formats = currentTypingFormats.subtracting([.code])
        var piece = AttributedString(ComposerFormatting.sanitizePlainText("@" + handle),
                                     attributes: formatting.attributes(formats: formats, mention: userID))
        piece.append(AttributedString(" ", attributes: formatting.attributes(formats: formats)))
        replace(range, with: piece, kind: .other)
    }

    /// Deletes the selection, or the character (or whole mention) before the caret; steps over
    /// a space that keeps a mention apart from a word (deleting it would only put it back).
    public mutating func deleteBackward() {
        if !selection.isEmpty { return replace(selection, with: AttributedString(), kind: .other) }
        guard let unit = unit(before: caret) else { return }
        if isMentionSeparator(unit.range) { return setSelection(unit.range.lowerBound..<unit.range.lowerBound) }
        replace(unit.range, with: AttributedString(), kind: .other)
    }

    /// Deletes the selection, or the character (or whole mention) after the caret; steps over
    /// a space that keeps a mention apart from a word.
    public mutating func deleteForward() {
        if !selection.isEmpty { return replace(selection, with: AttributedString(), kind: .other) }
        guard let unit = unit(after: caret) else { return }
        if isMentionSeparator(unit.range) { return setSelection(unit.range.upperBound..<unit.range.upperBound) }
        replace(unit.range, with: AttributedString(), kind: .other)
    }

    /// Removes a span into the kill buffer.
    mutating func kill(_ range: Range<AttributedString.Index>) {
        guard !range.isEmpty else { return }
        killBuffer = AttributedString(text[range])
        replace(range, with: AttributedString(), kind: .other)
    }

    /// Ctrl-Y: inserts the kill buffer (formatting and mentions included).
    public mutating func yank() {
        guard !killBuffer.characters.isEmpty else { return }
        replace(selection, with: killBuffer, kind: .other)
    }

    /// Empties the draft (after sending); undoable.
    public mutating func clear() {
        guard !text.characters.isEmpty else { return setSelection(text.startIndex..<text.startIndex) }
        replace(text.startIndex..<text.endIndex, with: AttributedString(), kind: .other)
        typingFormats = nil
    }

    /// The one mutation of the text: replaces `range`, puts the caret after the replacement (and
    /// after the Character its end joined, if any), keeps every mention token apart from text
    /// that would join it when read back (`ComposerDocument+MentionSpacing`) and records an undo step.
    mutating func replace(_ range: Range<AttributedString.Index>, with replacement: AttributedString, kind: ComposerHistory.EditKind) {
        history.record(snapshot, kind: kind)
        func utf8Offset(_ i: Index) -> Int { text.utf8.distance(from: text.startIndex, to: i) }
        let lowerOffset = utf8Offset(range.lowerBound)
        let endOffset = splice(range, with: replacement, cuttingMentions: true)
        // The end may now fall inside a Character (`x` typed before a combining mark): a caret
        // there would trap the next `index(before:)`.
        let end = text.utf8.index(text.startIndex, offsetBy: endOffset)
        var caretOffset = utf8Offset(characterBoundary(atOrAfter: end))
        alignRunsToCharacters()
        caretOffset = separateMentions(atSeams: [lowerOffset, endOffset], caret: caretOffset)
        // Deleting what stood between two mentions of one user joins them into one run, which
        // the caret may not be inside.
        let caret = mentionBoundary(text.utf8.index(text.startIndex, offsetBy: caretOffset), forward: true)
        selection = caret..<caret
        caretAtStart = false
        typingFormats = nil
    }

    /// Replaces `range` in the text, without touching the selection or history; returns the
    /// UTF-8 offset where the replacement ends. `cuttingMentions`: a mention the range's ends
    /// fall inside loses the attribute (an edit inside a token), else it is kept (a space put
    /// between two tokens of one user, which share a run).
    ///
    /// `AttributedString`'s own edits can leave its Character breaks stale, or trap, where an
    /// edit changes them (see `ComposerDocument+Characters`). So plain edits replace a stretch
    /// widened to certain breaks, all of whose scalars no grapheme rule joins, and any other edit
    /// rebuilds the whole text from its scalars: that costs a copy of the draft, only when the
    /// edit is next to marks, joiners, jamo, flags or emoji.
    mutating func splice(_ range: Range<AttributedString.Index>, with replacement: AttributedString, cuttingMentions: Bool) -> Int {
        func utf8Offset(_ i: Index) -> Int { text.utf8.distance(from: text.startIndex, to: i) }
        // A mention edited inside is plain text from then on, as its invalidation on text
        // change says; the wider stretch rebuilt around it is not a change to it.
        let cutMentions = !cuttingMentions ? [] : [range.lowerBound, range.upperBound].compactMap { i in
            mentionRun(at: i).flatMap { $0.lowerBound < i ? utf8Offset($0.lowerBound)..<utf8Offset($0.upperBound) : nil }
        }
        let whole = replacement[replacement.startIndex..<replacement.endIndex]
        let endOffset: Int
        if let stretch = widenedToSureBreaks(range), Self.isSimple(whole) {
            var middle = Self.pieces(of: text[stretch.lowerBound..<range.lowerBound], dropping: cutMentions, at: utf8Offset(stretch.lowerBound))
            middle += Self.pieces(of: whole, dropping: [], at: 0)
            endOffset = utf8Offset(stretch.lowerBound) + middle.reduce(0) { $0 + $1.text.utf8.count }
            middle += Self.pieces(of: text[range.upperBound..<stretch.upperBound], dropping: cutMentions, at: utf8Offset(range.upperBound))
            text.replaceSubrange(stretch, with: Self.attributedString(middle))
        } else {
            var pieces = Self.pieces(of: text[text.startIndex..<range.lowerBound], dropping: cutMentions, at: 0)
            pieces += Self.pieces(of: whole, dropping: [], at: 0)
            endOffset = pieces.reduce(0) { $0 + $1.text.utf8.count }
            pieces += Self.pieces(of: text[range.upperBound..<text.endIndex], dropping: cutMentions, at: utf8Offset(range.upperBound))
            text = Self.attributedString(pieces)
        }
        return endOffset
    }

    /// The formats the next typed character gets: the pending toggles, else those before the caret.
    public var currentTypingFormats: Set<ComposerFormat> {
        if let typingFormats { return typingFormats }
        let at = selection.lowerBound
        guard at > text.startIndex else { return [] }
        return ComposerFormatting.formats(in: text.runs[characterStart(before: at)].attributes)
    }
}

extension ComposerDocument: Equatable {
    /// Documents are equal when their text, selection and caret end are.
    public static func == (a: ComposerDocument, b: ComposerDocument) -> Bool {
        a.text == b.text && a.selectedOffsets == b.selectedOffsets && a.caretAtStart == b.caretAtStart
    }
}
