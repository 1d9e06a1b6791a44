import Foundation
import ThreadModel

/// A huge comment's body shown past its first part ("show more"), laid out a step at a time:
/// each step parses and lays out only the bytes it adds, as a text of its own, after the lines
/// laid out before. (Issue 36: each step laid the whole shown body out again, so the eighth
/// step of an 8 MB comment took seconds.) A part starts on a row of its own; where it starts
/// in a paragraph, or inside a code block or a list, it is laid out as if that started there.
struct ShownParts {
    /// The body the parts are of, as it was when laid out (shares its storage with the
    /// comment's, so comparing them is quick while it is the same).
    private let body: String
    /// The columns the parts are laid out in.
    let width: Int
    /// Where the laid-out text ends in the body (UTF-8 bytes).
    private(set) var end = 0
    /// The limit last laid out to: the text ends before it where a line break was near.
    private(set) var limit = 0
    /// The parts' lines, one after another.
    private(set) var lines: [TextLayout.Line] = []
    /// The number a later part's first spoiler takes (each part numbers its own from 0).
    private var nextSpoiler = 0
    /// What the last part left open, for the next to start with (`ShownBody.carry`).
    private var carry = ""

    /// No parts yet of `comment`'s body, to lay out at `width` columns.
    init(of comment: Comment, width: Int) {
        body = comment.body
        self.width = width
    }

    /// Whether these are parts of `comment`'s body as it is now (any change, even one that
    /// keeps its length and edit time, starts them afresh), at `width`.
    func isCurrent(for comment: Comment, width: Int) -> Bool {
        self.width == width && comment.body == body
    }

    /// Body bytes left out after the parts.
    var hiddenBytes: Int { body.utf8.count - end }

    /// Lays the body out from `end` to `limit` bytes (cut as `ShownBody` cuts) after the lines
    /// there are; nothing when `limit` is not past the last one. Returns the bytes laid out.
    @discardableResult
    mutating func extend(to limit: Int, handles: (String) -> String?) -> Int {
        let utf8 = body.utf8
        guard limit > self.limit, end < utf8.count else { return 0 }
        self.limit = limit
        var from = utf8.index(utf8.startIndex, offsetBy: end)
        // The code block the last part was cut in goes on: its blank lines are its own.
        let inCode = carry.hasSuffix("\n")
        var startsBlock = false
        if end > 0 {
            // The line break or space the last part was cut before: this part starts a row of
            // its own. A blank line there parts two blocks, as a blank row (the last part
            // ended with one line break, or one follows this one).
            let before = utf8[utf8.index(before: from)]
            startsBlock = before == 0x0A || before == 0x0D
            if let next = Self.index(after: from, in: utf8) {
                from = next
                startsBlock = startsBlock || (from < utf8.endIndex && (utf8[from] == 0x0A || utf8[from] == 0x0D))
            }
        }
        let start = utf8.distance(from: utf8.startIndex, to: from)
        let shown = ShownBody(body[from...], limit: limit - start, carrying: carry)
        var part = TextLayout(CommentMarkup.parseRuns(shown.text, handles: handles), width: width).lines
        // Spoilers are numbered after the earlier parts' (reveal one, and one only).
        let offset = nextSpoiler
        for line in part.indices {
            for run in part[line].runs.indices {
                guard let spoiler = part[line].runs[run].style.spoiler else { continue }
                part[line].runs[run].style.spoiler = spoiler + offset
                nextSpoiler = max(nextSpoiler, spoiler + offset + 1)
            }
        }
        if startsBlock, !inCode, !lines.isEmpty { lines.append(TextLayout.Line()) }
        lines += part
        end = start + shown.shownBytes
        carry = shown.carry
        return shown.text.utf8.count
    }

    /// Past the line break (LF, CR LF or CR) or the space at `index`, if one is there.
    private static func index(after index: String.Index, in utf8: String.UTF8View) -> String.Index? {
        guard index < utf8.endIndex else { return nil }
        switch utf8[index] {
        case 0x0A, 0x20:
            return utf8.index(after: index)
        case 0x0D:
            let next = utf8.index(after: index)
            return next < utf8.endIndex && utf8[next] == 0x0A ? utf8.index(after: next) : next
        default:
            return nil
        }
    }
}
