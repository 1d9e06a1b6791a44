/// What a text cut short (`ShownBody`) leaves open at its end: a fenced code block, or a
/// `||spoiler||` whose closing bars lie past the cut.
///
/// The next part is parsed as a text of its own, so it must start as inside what is open (or
/// its code is read as markdown, and its closing fence opens a block that swallows the prose
/// after it; or its closing bars open a spoiler and the hidden text shows). A byte scan of the
/// lines, by the rules `BlockParser` and the inline parser follow; where the two could differ
/// (bars in a link's address), it errs towards hiding: more shows hidden, never less.
struct MarkupLeftOpen {
    /// The line that opened the code block still open at the end (its `>` markers and fence), if one is.
    var fenceLine: String?
    /// Whether the last paragraph has a spoiler's opening bars and not their closing ones.
    var spoiler = false

    /// What `text` leaves open at its end.
    init(_ text: String) {
        let bytes = Array(text.utf8)
        var fence: (line: Range<Int>, character: UInt8, length: Int, depth: Int)?
        var paragraphStart = 0
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            var next = lineEnd
            if next < bytes.count { next += bytes[next] == 0x0D && next + 1 < bytes.count && bytes[next + 1] == 0x0A ? 2 : 1 }
            let (depth, contentStart) = Self.quoteMarkers(bytes, lineStart..<lineEnd)
            let fenceRun = Self.fenceRun(bytes, contentStart..<lineEnd)
            if let open = fence, depth == open.depth {
                if let run = fenceRun, run.character == open.character, run.length >= open.length,
                   bytes[run.end..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    fence = nil
                }
                paragraphStart = next
            } else if let run = fenceRun, run.character == 0x7E || !bytes[run.end..<lineEnd].contains(0x60) {
                fence = (lineStart..<lineEnd, run.character, run.length, depth)
                paragraphStart = next
            } else {
                fence = nil
                if bytes[contentStart..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    paragraphStart = next
                } else if Self.startsBlock(bytes, contentStart..<lineEnd) {
                    paragraphStart = lineStart
                }
            }
            lineStart = next
        }
        if let fence {
            fenceLine = String(decoding: bytes[fence.line], as: UTF8.self)
        } else {
            spoiler = Self.opensSpoiler(bytes[paragraphStart...])
        }
    }

    /// The number of `>` markers a line starts with, and where its content starts after them.
    private static func quoteMarkers(_ bytes: [UInt8], _ line: Range<Int>) -> (Int, Int) {
        var depth = 0
        var i = line.lowerBound
        while true {
            var j = i
            while j < line.upperBound, j - i < 3, bytes[j] == 0x20 { j += 1 }
            guard j < line.upperBound, bytes[j] == 0x3E else { return (depth, i) }
            depth += 1
            i = j + 1
            if i < line.upperBound, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        }
    }

    /// A run of three or more backticks or tildes after at most three spaces: a fence line's start.
    private static func fenceRun(_ bytes: [UInt8], _ content: Range<Int>) -> (character: UInt8, length: Int, end: Int)? {
        var i = content.lowerBound
        while i < content.upperBound, i - content.lowerBound < 4, bytes[i] == 0x20 { i += 1 }
        guard i - content.lowerBound < 4, i < content.upperBound, bytes[i] == 0x60 || bytes[i] == 0x7E else { return nil }
        let character = bytes[i]
        var end = i
        while end < content.upperBound, bytes[end] == character { end += 1 }
        return end - i >= 3 ? (character, end - i, end) : nil
    }

    /// Whether a line starts a block of its own (a heading or a list item): spoilers do not
    /// reach into it from the lines before.
    private static func startsBlock(_ bytes: [UInt8], _ content: Range<Int>) -> Bool {
        var i = content.lowerBound
        while i < content.upperBound, i - content.lowerBound < 3, bytes[i] == 0x20 { i += 1 }
        guard i < content.upperBound else { return false }
        let c = bytes[i]
        if c == 0x23 { return true }
        var j = i
        if c == 0x2D || c == 0x2A || c == 0x2B {
            j += 1
        } else {
            while j < content.upperBound, j - i < 9, (0x30...0x39).contains(bytes[j]) { j += 1 }
            guard j > i, j < content.upperBound, bytes[j] == 0x2E || bytes[j] == 0x29 else { return false }
            j += 1
        }
        return j == content.upperBound || bytes[j] == 0x20 || bytes[j] == 0x09
    }

    /// Whether `paragraph` has an odd number of `||` delimiters outside code spans and escapes.
    private static func opensSpoiler(_ paragraph: ArraySlice<UInt8>) -> Bool {
        // Where each run of backticks starts, by length, so a code span finds its closer at once.
        var backtickRuns: [Int: [Int]] = [:]
        var i = paragraph.startIndex
        while i < paragraph.endIndex {
            guard paragraph[i] == 0x60 else { i += 1; continue }
            let start = i
            while i < paragraph.endIndex, paragraph[i] == 0x60 { i += 1 }
            backtickRuns[i - start, default: []].append(start)
        }
        var cursors: [Int: Int] = [:]
        var open = false
        i = paragraph.startIndex
        while i < paragraph.endIndex {
            switch paragraph[i] {
            case 0x5C:
                i += 2
            case 0x60:
                let start = i
                while i < paragraph.endIndex, paragraph[i] == 0x60 { i += 1 }
                let length = i - start
                let runs = backtickRuns[length] ?? []
                var k = cursors[length] ?? 0
                while k < runs.count, runs[k] <= start { k += 1 }
                cursors[length] = k
                if k < runs.count { i = runs[k] + length }
            case 0x7C:
                let start = i
                while i < paragraph.endIndex, paragraph[i] == 0x7C { i += 1 }
                if i - start == 2 { open.toggle() }
            default:
                i += 1
            }
        }
        return open
    }
}
