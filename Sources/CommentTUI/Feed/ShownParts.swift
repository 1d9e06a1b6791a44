import Foundation
import ThreadModel

/// A huge comment's body shown past its first part ("show more"), laid out a step at a time:
/// each step parses and lays out only the bytes it adds, as a text of its own, after the lines
/// laid out before. (Issue 36: each step laid the whole shown body out again, so the eighth
/// step of an 8 MB comment took seconds.) A part starts on a row of its own; where it starts
/// in a paragraph, or inside a code block or a list, it is laid out as if that started there.
struct ShownParts {
    /// The comment the parts are of, as it was when laid out (an edit starts them afresh).
    private let bodyBytes: Int
    private let edited: Date?
    let width: Int
    /// Where the laid-out text ends in the body (UTF-8 bytes).
    private(set) var end = 0
    /// The limit last laid out to: the text ends before it where a line break was near.
    private(set) var limit = 0
    /// The parts' lines, one after another.
    private(set) var lines: [TextLayout.Line] = []
    /// The number a later part's first spoiler takes (each part numbers its own from 0).
    private var nextSpoiler = 0

    init(of comment: Comment, width: Int) {
        bodyBytes = comment.body.utf8.count
        edited = comment.edited
        self.width = width
    }

    /// Whether these are parts of `comment` as it is now, at `width`.
    func belong(to comment: Comment, width: Int) -> Bool {
        comment.body.utf8.count == bodyBytes && comment.edited == edited && self.width == width
    }

    /// Body bytes left out after the parts.
    var hiddenBytes: Int { bodyBytes - end }

    /// Lays out the body from `end` to `limit` bytes (cut as `ShownBody` cuts) after the lines
    /// there are; nothing when `limit` is not past the last one. Returns the bytes laid out.
    @discardableResult
    mutating func extend(_ body: String, to limit: Int, handles: (String) -> String?) -> Int {
        let utf8 = body.utf8
        guard limit > self.limit, end < utf8.count else { return 0 }
        self.limit = limit
        var from = utf8.index(utf8.startIndex, offsetBy: end)
        var startsBlock = false
        if end > 0, utf8[from] == 0x0A {
            // The line break the last part was cut before: this part starts a row of its own;
            // a blank line after it parts two blocks, as a blank row.
            from = utf8.index(after: from)
            startsBlock = from < utf8.endIndex && utf8[from] == 0x0A
        }
        let start = utf8.distance(from: utf8.startIndex, to: from)
        let shown = ShownBody(body[from...], limit: limit - start)
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
        if startsBlock, !lines.isEmpty { lines.append(TextLayout.Line()) }
        lines += part
        end = start + shown.text.utf8.count
        return shown.text.utf8.count
    }
}
