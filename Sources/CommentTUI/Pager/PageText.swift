import Foundation
import ThreadModel

/// A page's text (the post, the key table) laid out at one width, with where each line starts
/// in the text, so that a re-wrap at another width can keep the reader's place.
struct PageText {
    /// The columns laid out for.
    let width: Int
    let lines: [TextLayout.Line]
    /// Every spoiler of the text laid out (Alt-S reveals them all).
    let spoilers: Set<Int>
    /// Per line: the text's characters before it, counting only what wrapping never drops or
    /// adds (text that is not a space), so the count names the same place at any width.
    private let starts: [Int]

    init(width: Int, lines: [TextLayout.Line]) {
        self.width = width
        self.lines = lines.isEmpty ? [TextLayout.Line()] : lines
        var starts: [Int] = []
        starts.reserveCapacity(self.lines.count + 1)
        var count = 0
        var spoilers = Set<Int>()
        for line in self.lines {
            starts.append(count)
            for run in line.runs {
                if let spoiler = run.style.spoiler { spoilers.insert(spoiler) }
                guard run.style.role == .text else { continue }
                count += run.clusters.reduce(0) { $0 + ($1.text == " " ? 0 : 1) }
            }
        }
        starts.append(count)
        self.starts = starts
        self.spoilers = spoilers
    }

    /// A place in the text that outlives a re-wrap: the characters before a line, and the rows
    /// without any (a blank row between paragraphs, a ruby reading) just above that text.
    struct Place: Equatable {
        var characters: Int
        var emptyRowsBefore: Int
    }

    /// Whether a line holds none of the counted characters (a blank row, readings, a marker).
    private func isEmpty(_ line: Int) -> Bool { starts[line + 1] == starts[line] }

    /// The place of a line.
    func place(ofLine line: Int) -> Place {
        let line = min(max(0, line), lines.count - 1)
        var empty = 0
        while line + empty < lines.count - 1, isEmpty(line + empty) { empty += 1 }
        return Place(characters: starts[line], emptyRowsBefore: empty)
    }

    /// The line a place is on now: the line holding its first character, with the empty rows
    /// above it that it had (as many as there still are).
    func line(at place: Place) -> Int {
        // The first line that ends after the place's character (binary search: `starts` only grows).
        var low = 0, high = lines.count - 1
        while low < high {
            let middle = (low + high) / 2
            if starts[middle + 1] > place.characters { high = middle } else { low = middle + 1 }
        }
        var line = low
        var empty = place.emptyRowsBefore
        while empty > 0, line > 0, isEmpty(line - 1) {
            line -= 1
            empty -= 1
        }
        return line
    }

    /// The style of the cell at a line and column (for clicks).
    func style(line: Int, column: Int) -> TextRunStyle? {
        lines.indices.contains(line) ? lines[line].style(at: column) : nil
    }

    /// The first link on lines `range` that no hidden spoiler covers.
    func firstLink(in range: Range<Int>, revealed: Set<Int>) -> String? {
        for line in range.clamped(to: lines.indices) {
            for run in lines[line].runs where run.style.role == .text {
                if let url = run.style.link, run.style.spoiler.map(revealed.contains) ?? true { return url }
            }
        }
        return nil
    }
}

extension PageText {
    /// Comment markup (the thread's post) laid out as a comment is, its first `bodyBytes`
    /// (`ShownBody`), and the offer of more after them when the body goes on.
    init(markup body: String, handles: (String) -> String?, width: Int, bodyBytes: Int) {
        let shown = ShownBody(body, limit: bodyBytes)
        var layout = TextLayout(CommentMarkup.parseRuns(shown.text, handles: handles), width: width)
        if shown.hiddenBytes > 0 {
            layout = layout.withShowMoreMarker(hiddenBytes: shown.hiddenBytes,
                                               nextBytes: FeedLayout.limit(after: bodyBytes) - bodyBytes)
        }
        self.init(width: width, lines: layout.lines)
    }
}
