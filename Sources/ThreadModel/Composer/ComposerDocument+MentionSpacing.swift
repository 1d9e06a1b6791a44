import Foundation

/// Keeping a mention token apart from text that would join it when the comment is read back.
///
/// The parser reads `@handle` as a mention only when no word character (or `\`) stands before
/// the `@`, and takes every word character, `.` and `-` after it into the handle (less a
/// trailing `.` or `-`). So a token with a word typed against it (`@mateo` then `ok`) or after
/// a word (`Z` then `@marco`) would be sent as something else. The draft gets the space that
/// keeps them apart as the text is typed, not the body as it is sent: what the composer shows,
/// what undo takes back and what is sent are one text.
extension ComposerDocument {
    /// Where a space must go, if the text from `left` to `right` were gone (`left == right`: at
    /// an edit's seam), for the tokens on either side to be read back as tokens; nil when none is.
    func mentionSeparator(joining left: Index, _ right: Index) -> Index? {
        // Two tokens of one user met: they share one run across the seam.
        if left == right, left > text.startIndex, let run = mentionRun(at: left), run.lowerBound < left { return left }
        // A token after a word character, whose `@` would be part of the word, or after a `\`,
        // which would escape it.
        if let run = mentionRun(at: right), run.lowerBound == right, left > text.startIndex,
           let last = character(at: characterStart(before: left)).unicodeScalars.last,
           last.isWordCharacter || last == "\\" {
            return left
        }
        // A token ending at `left`, or before `.`s and `-`s that end there, then more of them and
        // a word character from `right`: the handle would take them all in. The space goes
        // right after the token, keeping what was typed together.
        var tokenEnd = left
        while tokenEnd > text.startIndex {
            let p = characterStart(before: tokenEnd)
            if mentionRun(at: p) != nil { break }
            let c = character(at: p)
            guard c == "." || c == "-" else { return nil }
            tokenEnd = p
        }
        guard tokenEnd > text.startIndex, mentionRun(at: characterStart(before: tokenEnd)) != nil else { return nil }
        var i = right
        while i < text.endIndex, mentionRun(at: i) == nil, let first = character(at: i).unicodeScalars.first {
            if first.isWordCharacter { return tokenEnd }
            guard first == "." || first == "-" else { return nil }
            i = characterEnd(after: i)
        }
        return nil
    }

    /// Whether `range` is a space that keeps a token apart: deleting it would only put it back,
    /// so Backspace and Delete step over it.
    func isMentionSeparator(_ range: Range<Index>) -> Bool {
        guard range.lowerBound < text.endIndex, character(at: range.lowerBound) == " " else { return false }
        return mentionSeparator(joining: range.lowerBound, range.upperBound) != nil
    }

    /// Puts a space wherever the text at an edit's seams (UTF-8 offsets) would join a token;
    /// returns `caret` (a UTF-8 offset) moved past the spaces put before it. The caret stays
    /// before a space put where it is: text typed before a token goes on next to the caret.
    mutating func separateMentions(atSeams seams: [Int], caret: Int) -> Int {
        var caret = caret
        var seams = seams.sorted(by: >)
        var inserted = false
        while !seams.isEmpty {
            let seam = characterBoundary(atOrAfter: text.utf8.index(text.startIndex, offsetBy: seams.removeFirst()))
            guard let at = mentionSeparator(joining: seam, seam) else { continue }
            let offset = text.utf8.distance(from: text.startIndex, to: at)
            insertSeparator(at: at)
            inserted = true
            if offset < caret { caret += 1 }
            seams = seams.map { $0 > offset ? $0 + 1 : $0 }
        }
        if inserted { alignRunsToCharacters() }
        return caret
    }

    /// Keeps every token of the text apart (a draft restored from an older client's save).
    mutating func separateAllMentions() {
        func utf8Offset(_ i: Index) -> Int { text.utf8.distance(from: text.startIndex, to: i) }
        var seams: [Int] = []
        for (value, range) in text.runs[CommentAttributes.MentionAttribute.self] where value != nil {
            seams += [utf8Offset(range.lowerBound), utf8Offset(range.upperBound)]
        }
        guard !seams.isEmpty else { return }
        _ = separateMentions(atSeams: seams, caret: 0)
    }

    /// A plain space at `i`, with the formats the text on both sides shares (never code, which
    /// a token never has).
    private mutating func insertSeparator(at i: Index) {
        let before = i > text.startIndex ? ComposerFormatting.formats(in: text.runs[characterStart(before: i)].attributes) : []
        let after = i < text.endIndex ? ComposerFormatting.formats(in: text.runs[i].attributes) : []
        let space = AttributedString(" ", attributes: formatting.attributes(formats: before.intersection(after).subtracting([.code])))
        _ = splice(i..<i, with: space, cuttingMentions: false)
    }
}
