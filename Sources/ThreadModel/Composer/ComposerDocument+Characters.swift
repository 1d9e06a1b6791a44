import Foundation

/// Character boundaries that an edit can move, found without trusting `AttributedString`'s
/// cached grapheme breaks.
///
/// An edit can join the text at its edges into other Characters: a letter typed before a
/// combining mark becomes one Character with it, as does a Hangul syllable typed before a vowel
/// jamo, a deleted line break between a letter and a mark, or a regional indicator that re-pairs
/// the flags after it. `AttributedString` rounds an index inside a Character down to its start
/// and traps on `characters.index(before:)` inside the first one; and after such an edit its
/// `index(before:)` can report a break inside a Character (Foundation in Swift 6.3: insert
/// U+1161 before a final U+1161 and walk back from the end). So the composer steps over
/// Characters with the standard library's `String` segmentation of a short stretch between two
/// points where a break is certain, and keeps the selection and every attribute run on the
/// boundaries it finds.
extension ComposerDocument {
    // MARK: Stepping

    /// The start of the Character before `i` (`i` after the start).
    func characterStart(before i: Index) -> Index {
        let scalars = text.unicodeScalars
        let stretch = characterStarts(from: sureBreak(atOrBefore: scalars.index(before: i)), to: i)
        return stretch.last { $0 < i } ?? text.startIndex
    }

    /// The end of the Character starting at (or containing) `i` (`i` before the end).
    func characterEnd(after i: Index) -> Index {
        let end = sureBreak(after: i)
        return characterStarts(from: sureBreak(atOrBefore: i), to: end).first { $0 > i } ?? end
    }

    /// The Character starting at `i` (`i` a boundary before the end).
    func character(at i: Index) -> Character {
        String(String.UnicodeScalarView(text.unicodeScalars[i..<characterEnd(after: i)])).first ?? " "
    }

    /// Whether `i` is where a Character starts (or the end of the text).
    func isCharacterBoundary(_ i: Index) -> Bool {
        guard i > text.startIndex, i < text.endIndex else { return true }
        return characterBoundary(atOrAfter: i) == i
    }

    /// `i`, or the end of the Character it falls inside.
    func characterBoundary(atOrAfter i: Index) -> Index {
        guard i > text.startIndex, i < text.endIndex else { return i }
        let end = sureBreak(atOrAfter: i)
        return characterStarts(from: sureBreak(atOrBefore: i), to: end).first { $0 >= i } ?? end
    }

    /// `i`, or the start of the Character it falls inside.
    func characterBoundary(atOrBefore i: Index) -> Index {
        guard i > text.startIndex, i < text.endIndex else { return i }
        return characterStarts(from: sureBreak(atOrBefore: i), to: sureBreak(atOrAfter: i)).last { $0 <= i } ?? text.startIndex
    }

    // MARK: Segmenting a stretch

    /// The Character starts in `lower..<upper`, two sure breaks (or a Character boundary as
    /// `upper`).
    func characterStarts(from lower: Index, to upper: Index) -> [Index] {
        guard lower < upper else { return [lower] }
        let stretch = String(String.UnicodeScalarView(text.unicodeScalars[lower..<upper]))
        ComposerWholeReads.addSegmented(stretch.utf8.count)
        let base = text.utf8.distance(from: text.startIndex, to: lower)
        return stretch.indices.map { text.utf8.index(text.startIndex, offsetBy: base + stretch.utf8.distance(from: stretch.startIndex, to: $0)) }
    }

    /// The nearest sure break at or before `i` (the start at worst).
    func sureBreak(atOrBefore i: Index) -> Index {
        let scalars = text.unicodeScalars
        var j = i
        while j > text.startIndex, !isSureBreak(j) { j = scalars.index(before: j) }
        return j
    }

    /// The nearest sure break at or after `i` (the end at worst).
    func sureBreak(atOrAfter i: Index) -> Index {
        let scalars = text.unicodeScalars
        var j = i
        while j < text.endIndex, !isSureBreak(j) { j = scalars.index(after: j) }
        return j
    }

    /// The nearest sure break after `i` (the end at worst).
    func sureBreak(after i: Index) -> Index {
        i < text.endIndex ? sureBreak(atOrAfter: text.unicodeScalars.index(after: i)) : i
    }

    /// Whether Characters break at `j` whatever comes before: after a line feed, before one
    /// (the draft holds no CR), or between two scalars no grapheme rule joins (ASCII, Hangul
    /// syllables, CJK ideographs and kana: none is a mark, joiner, jamo, prepended, regional
    /// indicator, pictograph or Indic consonant).
    private func isSureBreak(_ j: Index) -> Bool {
        guard j > text.startIndex, j < text.endIndex else { return true }
        let scalars = text.unicodeScalars
        let a = scalars[scalars.index(before: j)], b = scalars[j]
        if a == "\n" || b == "\n" { return a != "\r" }
        return Self.neverJoins(a) && Self.neverJoins(b)
    }

    static func neverJoins(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        // Kana without U+3099 and U+309A, the combining (semi-)voiced sound marks.
        case 0x20...0x7E, 0x3040...0x3098, 0x309B...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
        // Latin letters with accents (without U+00AD, the soft hyphen, a control), Greek and
        // Cyrillic (without U+0483...U+0489, its combining marks): a line of them has a sure
        // break between every two, so a key in it costs what the key costs.
        case 0xA0...0xAC, 0xAE...0x24F, 0x370...0x3FF, 0x400...0x482, 0x48A...0x52F: return true
        default: return false
        }
    }

    // MARK: Rebuilding an edited stretch

    /// `range` widened on both sides to sure breaks outside it (and over any mention those cut),
    /// if every scalar in it and next to it is one that no grapheme rule joins; else nil.
    func widenedToSureBreaks(_ range: Range<Index>) -> Range<Index>? {
        let scalars = text.unicodeScalars
        var lower = range.lowerBound > text.startIndex ? sureBreak(atOrBefore: scalars.index(before: range.lowerBound)) : text.startIndex
        while let run = mentionRun(at: lower), run.lowerBound < lower {
            lower = run.lowerBound > text.startIndex ? sureBreak(atOrBefore: scalars.index(before: run.lowerBound)) : text.startIndex
        }
        var upper = sureBreak(after: range.upperBound)
        while let run = mentionRun(at: upper), run.lowerBound < upper { upper = sureBreak(after: run.upperBound) }
        let from = lower > text.startIndex ? scalars.index(before: lower) : lower
        let to = upper < text.endIndex ? scalars.index(after: upper) : upper
        return scalars[from..<to].allSatisfy(Self.isSimple) ? lower..<upper : nil
    }

    /// A scalar no grapheme rule joins to its neighbours, or a line feed.
    static func isSimple(_ s: Unicode.Scalar) -> Bool { s == "\n" || neverJoins(s) }

    /// Whether every scalar of `piece` is simple.
    static func isSimple(_ piece: AttributedSubstring) -> Bool { piece.unicodeScalars.allSatisfy(isSimple) }

    /// `piece` as text and attributes run by run, without the mention attribute where a run
    /// overlaps `dropping` (UTF-8 offsets in the text, `piece` starting at `start`).
    static func pieces(of piece: AttributedSubstring, dropping: [Range<Int>], at start: Int) -> [(text: String, attributes: AttributeContainer)] {
        var out: [(text: String, attributes: AttributeContainer)] = []
        var offset = start
        for run in piece.runs {
            let scalars = String(String.UnicodeScalarView(piece[run.range].unicodeScalars))
            var attributes = run.attributes
            let span = offset..<(offset + scalars.utf8.count)
            if dropping.contains(where: { $0.overlaps(span) }) { attributes[CommentAttributes.MentionAttribute.self] = nil }
            out.append((scalars, attributes))
            offset = span.upperBound
        }
        return out
    }

    /// A fresh `AttributedString` of the pieces: made from one `String`, so its Character
    /// breaks are computed anew, then given the attributes piece by piece.
    static func attributedString(_ pieces: [(text: String, attributes: AttributeContainer)]) -> AttributedString {
        var out = AttributedString(pieces.map(\.text).joined())
        var offset = 0
        for piece in pieces {
            let count = piece.text.utf8.count
            let lower = out.utf8.index(out.startIndex, offsetBy: offset)
            out[lower..<out.utf8.index(lower, offsetBy: count)].setAttributes(piece.attributes)
            offset += count
        }
        return out
    }

    // MARK: Runs

    /// Puts every attribute run back on whole Characters after an edit joined some: a mention
    /// that no longer starts and ends on a boundary loses the attribute (a mark joined its last
    /// letter, so its text is no longer the `@handle` it named, as when sanitizing changes it),
    /// and a Character split between formats takes those of its first part, as it is shown.
    /// Costs a look per run.
    mutating func alignRunsToCharacters() {
        func utf8Offset(_ i: Index) -> Int { text.utf8.distance(from: text.startIndex, to: i) }
        // Found again by UTF-8 offset, which an attribute change cannot move.
        func range(_ offsets: Range<Int>) -> Range<Index> {
            text.utf8.index(text.startIndex, offsetBy: offsets.lowerBound)..<text.utf8.index(text.startIndex, offsetBy: offsets.upperBound)
        }
        var brokenMentions: [Range<Int>] = []
        for (value, range) in text.runs[CommentAttributes.MentionAttribute.self] where value != nil {
            guard !isCharacterBoundary(range.lowerBound) || !isCharacterBoundary(range.upperBound) else { continue }
            brokenMentions.append(utf8Offset(range.lowerBound)..<utf8Offset(range.upperBound))
        }
        for offsets in brokenMentions { text[range(offsets)][CommentAttributes.MentionAttribute.self] = nil }
        var split: [(Range<Int>, AttributeContainer)] = []
        for run in text.runs where !isCharacterBoundary(run.range.lowerBound) {
            let start = characterBoundary(atOrBefore: run.range.lowerBound)
            guard split.last?.0.lowerBound != utf8Offset(start) else { continue }
            let end = characterBoundary(atOrAfter: run.range.lowerBound)
            split.append((utf8Offset(start)..<utf8Offset(end), text.runs[start].attributes))
        }
        for (offsets, attributes) in split { text[range(offsets)].setAttributes(attributes) }
    }
}
