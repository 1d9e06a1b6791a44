/// A run of `*`, `_`, `~` or `|` on the delimiter stack (a doubly linked list over an array).
struct Delimiter {
    var node: Int
    /// Where the run starts in the text.
    var start: Int
    var character: Unicode.Scalar
    var count: Int
    var originalCount: Int
    var canOpen: Bool
    var canClose: Bool
    var previous: Int
    var next = -1
    /// For `||`: whitespace inside it as an opener (after) and as a closer (before), as in
    /// `|| the butler did it ||`.
    var spaceAfter = false
    var spaceBefore = false
    /// For `||`: nothing but whitespace between it and the start (end) of its line.
    var lineStartBefore = false
    var lineEndAfter = false
}

extension InlineParser {
    /// Pushes a delimiter run; runs that cannot delimit anything stay text.
    mutating func scanDelimiterRun(_ c: Unicode.Scalar) {
        let start = position
        var end = position
        while scalar(at: end) == c { end += 1 }
        let count = end - start
        position = end
        let run = String(repeating: Character(c), count: count)
        // GFM strikethrough takes one or two tildes; a spoiler is exactly two bars.
        if (c == "~" && count > 2) || (c == "|" && count != 2) {
            pendingText.append(contentsOf: run.unicodeScalars)
            return
        }
        let before = scalar(at: start - 1)
        let after = scalar(at: end)
        let beforeSpace = before?.isMarkdownWhitespace ?? true
        let afterSpace = after?.isMarkdownWhitespace ?? true
        let beforePunct = before?.isMarkdownPunctuation ?? false
        let afterPunct = after?.isMarkdownPunctuation ?? false
        let leftFlanking = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
        let rightFlanking = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
        var canOpen = leftFlanking
        var canClose = rightFlanking
        if c == "_" {
            canOpen = leftFlanking && (!rightFlanking || beforePunct)
            canClose = rightFlanking && (!leftFlanking || afterPunct)
        }
        // Spoilers may keep spaces inside their bars (as Discord's do); `matches` limits where.
        let spaceAfter = c == "|" && after != nil && afterSpace
        let spaceBefore = c == "|" && before != nil && beforeSpace
        if spaceAfter { canOpen = true }
        if spaceBefore { canClose = true }
        let node = append(.delimiterRun(c, count))
        guard canOpen || canClose else { return }
        let index = delimiters.count
        var delimiter = Delimiter(node: node, start: start, character: c, count: count, originalCount: count,
                                  canOpen: canOpen, canClose: canClose, previous: lastDelimiter)
        if c == "|" {
            delimiter.spaceAfter = spaceAfter
            delimiter.spaceBefore = spaceBefore
            delimiter.lineStartBefore = isLineEdge(from: start - 1, step: -1)
            delimiter.lineEndAfter = isLineEdge(from: end, step: 1)
        }
        delimiters.append(delimiter)
        if lastDelimiter >= 0 { delimiters[lastDelimiter].next = index }
        lastDelimiter = index
    }

    /// The spec's "process emphasis" over the delimiters above `bottom` (-1: all).
    mutating func processEmphasis(above bottom: Int) {
        var openersBottom: [Int: Int] = [:]
        var first = lastDelimiter
        while first >= 0, delimiters[first].previous > bottom { first = delimiters[first].previous }
        var current = first > bottom ? first : -1
        while current >= 0 {
            let closer = delimiters[current]
            guard closer.canClose else { current = closer.next; continue }
            let key = openersKey(closer)
            let bound = max(bottom, openersBottom[key] ?? -1)
            var opener = closer.previous
            while opener > bound, !matches(delimiters[opener], closer) { opener = delimiters[opener].previous }
            guard opener > bound else {
                openersBottom[key] = closer.previous
                let next = closer.next
                if !closer.canOpen { unlink(current) }
                current = next
                continue
            }
            let use: Int
            let span: InlineSpan
            switch closer.character {
            case "~": use = closer.count; span = .strikethrough
            case "|":
                use = 2
                span = .spoiler
                // Both runs are exactly `||`, used up by this one spoiler.
                let openerStart = delimiters[opener].start
                formedExtensionDelimiters += [openerStart, openerStart + 1, closer.start, closer.start + 1]
            default:
                use = closer.count >= 2 && delimiters[opener].count >= 2 ? 2 : 1
                span = use == 2 ? .strong : .emphasis
            }
            consume(use, from: opener)
            consume(use, from: current)
            nodes[delimiters[opener].node].opensAfter.append(span)
            nodes[closer.node].closesBefore.append(span)
            var between = closer.previous
            while between != opener {
                let previous = delimiters[between].previous
                unlink(between)
                between = previous
            }
            if delimiters[opener].count == 0 { unlink(opener) }
            if delimiters[current].count == 0 {
                let next = delimiters[current].next
                unlink(current)
                current = next
            }
        }
    }

    /// Drops every delimiter above `bottom` from the stack (their text stays).
    mutating func removeDelimiters(above bottom: Int) {
        while lastDelimiter > bottom { unlink(lastDelimiter) }
    }

    /// Whether only spaces and tabs lie from `index` (walking by `step`) to a line's edge.
    private func isLineEdge(from index: Int, step: Int) -> Bool {
        var i = index
        while let c = scalar(at: i), c == " " || c == "\t" { i += step }
        return scalar(at: i) == nil || scalar(at: i) == "\n"
    }

    private func matches(_ opener: Delimiter, _ closer: Delimiter) -> Bool {
        guard opener.canOpen, opener.character == closer.character else { return false }
        if closer.character == "~" { return opener.count == closer.count }
        if closer.character == "|" {
            // Spaces inside the bars only where the spoiler starts or ends its line, so that
            // `a || b || c` stays text.
            let padded = opener.spaceAfter || closer.spaceBefore
            return opener.count == closer.count && (!padded || opener.lineStartBefore || closer.lineEndAfter)
        }
        // The "multiple of 3" rule keeps `*foo**bar*` from pairing the wrong runs.
        if opener.canClose || closer.canOpen {
            let sum = opener.originalCount + closer.originalCount
            if sum % 3 == 0, !(opener.originalCount % 3 == 0 && closer.originalCount % 3 == 0) { return false }
        }
        return true
    }

    private func openersKey(_ closer: Delimiter) -> Int {
        let lengthPart = closer.character == "*" || closer.character == "_" ? closer.originalCount % 3 : closer.count
        // Which openers a `||` closer accepts depends on its spaces and line end too: closers
        // that differ there must not share a bound.
        let spoilerPart = (closer.lineEndAfter ? 32 : 0) + (closer.spaceBefore ? 16 : 0)
        return Int(closer.character.value) * 64 + spoilerPart + (closer.canOpen ? 8 : 0) + lengthPart
    }

    private mutating func consume(_ count: Int, from index: Int) {
        delimiters[index].count -= count
        let d = delimiters[index]
        // Only the count changes here; the text is built once, in `items()`, to stay linear.
        nodes[d.node].kind = .delimiterRun(d.character, d.count)
    }

    private mutating func unlink(_ index: Int) {
        let d = delimiters[index]
        if d.previous >= 0 { delimiters[d.previous].next = d.next }
        if d.next >= 0 { delimiters[d.next].previous = d.previous }
        if lastDelimiter == index { lastDelimiter = d.previous }
        delimiters[index].previous = -1
        delimiters[index].next = -1
    }
}
