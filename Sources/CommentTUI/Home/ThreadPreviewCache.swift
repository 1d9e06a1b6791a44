import ThreadModel

/// A home row's preview: the newest comment rendered as the feed renders it (parsed by the
/// markup parser, laid out cell by cell so nothing from it reaches the terminal as a control,
/// spoilers left for `CommentRenderer` to mask), its lines joined into one.
///
/// Parsed once per thread and text, when a row first shows it (home may list hundreds of
/// threads; only those on screen are parsed), and cut to a row's width when drawn.
final class ThreadPreviewCache {
    /// Bytes of a body parsed for its preview: a row shows far less; `ShownBody` cuts where it
    /// leaves no spoiler open (so the cut never shows what one hides).
    static let parsedBytes = 2048
    /// Columns laid out before lines are joined: wide, so wrapping rarely splits a line.
    static let layoutWidth = 1000

    private var lines: [ThreadKey: (source: String, line: TextLayout.Line)] = [:]

    /// The preview of `body` for thread `key`, as one line (cached while the body is the same).
    func line(for key: ThreadKey, body: String) -> TextLayout.Line {
        if let cached = lines[key], cached.source == body { return cached.line }
        let line = Self.line(of: body)
        lines[key] = (body, line)
        return line
    }

    /// Forgets threads no longer listed.
    func keep(only keys: Set<ThreadKey>) {
        lines = lines.filter { keys.contains($0.key) }
    }

    /// `body` parsed and laid out, its lines (quote bars and ruby readings left out) joined by spaces.
    static func line(of body: String) -> TextLayout.Line {
        let text = ShownBody(body, limit: parsedBytes).text
        // Every `@word` styled as a mention: home does not know the room's members.
        let layout = TextLayout(CommentMarkup.parseRuns(text, handles: { $0 }), width: layoutWidth)
        var joined = TextLayout.Line()
        var column = 0
        for line in layout.lines where !line.isRubyReading {
            let content = line.runs.filter { $0.style.role != .quoteBar && !$0.clusters.isEmpty }
            guard let first = content.first else { continue }
            if column > 0 { column += 1 }
            let shift = column - first.column
            for run in content {
                var moved = run
                moved.column += shift
                joined.runs.append(moved)
            }
            column = joined.width
            if column > layoutWidth { break }
        }
        return joined
    }

    /// `line` cut to `width` columns, ending in `…` (`TextFit`'s rule) when it was longer.
    static func cut(_ line: TextLayout.Line, to width: Int) -> TextLayout.Line {
        guard line.width > width else { return line }
        let clusters = line.runs.flatMap(\.clusters)
        let (count, _) = TextFit.kept(clusters, width: width)
        var cut = TextLayout.Line()
        var left = count
        for run in line.runs where left > 0 {
            var kept = run
            kept.clusters = Array(run.clusters.prefix(left))
            left -= kept.clusters.count
            cut.runs.append(kept)
        }
        // No space before the `…` (TextFit's rule), and it follows the text, not a gap.
        while var last = cut.runs.last, last.clusters.last?.text.allSatisfy(\.isWhitespace) == true {
            last.clusters.removeLast()
            cut.runs[cut.runs.count - 1] = last
            if last.clusters.isEmpty { cut.runs.removeLast() }
        }
        cut.runs.append(TextLayout.Run(column: cut.width, clusters: DisplayWidth.clusters(of: String(TextFit.ellipsis)),
                                       style: .plain))
        return cut
    }
}
