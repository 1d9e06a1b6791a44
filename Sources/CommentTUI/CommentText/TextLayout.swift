import Foundation
import ThreadModel

/// A comment body laid out at a width: lines of runs of cells, each run at its column.
///
/// The terminal's counterpart of a `Text` layout: word wrap at spaces, CJK breakable between
/// characters, over-long words broken, tabs expanded, quotes and code blocks indented, list
/// markers hanging, headings bold behind their dimmed `#`s, hard line breaks kept, a blank
/// line between blocks (with the bars of a quote that goes on across it), ruby readings on a
/// row of their own above their bases (one `Line` each, so a line is always one row). Built once per comment
/// and width (the feed caches it); a renderer walks it to draw.
struct TextLayout: Equatable, Sendable {
    /// Cells of one style, starting at `column`.
    struct Run: Equatable, Sendable {
        var column: Int
        var clusters: [DisplayCluster]
        var style: TextRunStyle
        var width: Int { clusters.reduce(0) { $0 + $1.width } }
    }

    /// One row of the layout.
    struct Line: Equatable, Sendable {
        var runs: [Run] = []
        var width: Int { runs.last.map { $0.column + $0.width } ?? 0 }
        /// Whether the row holds ruby readings (for the base row below it).
        var isRubyReading: Bool { runs.contains { $0.style.role == .rubyReading } }
        /// The style of the cell at `column` (for clicks), nil past the text.
        func style(at column: Int) -> TextRunStyle? {
            runs.first { column >= $0.column && column < $0.column + $0.width }?.style
        }
        /// The text of the line as a terminal shows it, for tests and plain output.
        var text: String {
            // Gathered as UTF-8 and made a String once: appending each cluster's String costs
            // more than its byte. The columns written so far are counted as the runs were laid
            // out (by their clusters' widths), not measured again on the growing text.
            var utf8: [UInt8] = []
            utf8.reserveCapacity(width + 16)
            var column = 0
            for run in runs {
                if run.column > column {
                    utf8.append(contentsOf: repeatElement(UInt8(ascii: " "), count: run.column - column))
                    column = run.column
                }
                for cluster in run.clusters {
                    let bytes = cluster.text.utf8
                    if bytes.count == 1 { utf8.append(bytes[bytes.startIndex]) } else { utf8.append(contentsOf: bytes) }
                    column += cluster.width
                }
            }
            return String(decoding: utf8, as: UTF8.self)
        }
    }

    /// The width laid out for.
    let width: Int
    var lines: [Line]
    /// Whether lines were left out (see `truncated(toRows:)`).
    private(set) var isTruncated = false
    /// Lines the full layout has; equal to `lines.count` unless truncated.
    private(set) var fullLineCount: Int

    init(width: Int, lines: [Line]) {
        self.width = width
        self.lines = lines
        fullLineCount = lines.count
    }

    /// Lays out parsed comment text (see `CommentMarkup`) at `width` columns.
    init(_ text: AttributedString, width: Int) {
        self.init(MarkupRuns(text), width: width)
    }

    /// Lays out parsed comment text given as runs (see `CommentMarkup.parseRuns`).
    /// `pieceClusters`: how long a line `LogicalLines` hands over at once (tests vary it).
    init(_ text: MarkupRuns, width: Int, pieceClusters: Int = LogicalLines.pieceClusters) {
        let width = max(4, width)
        var lines: [Line] = []
        var n = 0
        // The wrapper of a line handed over in pieces, until its last piece.
        var open: LineWrapper?
        LogicalLines.forEach(in: text, pieceClusters: pieceClusters) { piece in
            // Taken out while it grows, so its rows are never copied.
            var wrapper: LineWrapper
            if let started = open {
                wrapper = started
                open = nil
            } else {
                if n > 0, piece.startsBlock, !piece.continuesList { lines.append(LineWrapper.runs(piece.separator, styles: piece.styles, clusters: piece.clusterTable)) }
                wrapper = LineWrapper(width: width, paragraph: piece)
                n += 1
            }
            wrapper.add(piece.cells)
            if piece.goesOn {
                lines += wrapper.takeLines()
                open = wrapper
            } else {
                lines += wrapper.finish()
            }
        }
        self.init(width: width, lines: lines.isEmpty ? [Line()] : lines)
    }

    /// The layout cut to `rows` rows, the last ending in `… N more lines` (an expand marker) so
    /// the marker always fits; unchanged when it already fits. `andMore`: the layout is itself
    /// only the start of the text (`ShownBody`), so the count is a lower bound (`N+ more lines`).
    func truncated(toRows rows: Int, andMore: Bool = false) -> TextLayout {
        guard rows >= 1, lines.count > rows || andMore else { return self }
        var kept = Array(lines.prefix(rows))
        let hidden = max(0, lines.count - rows)
        let marker = Self.markerRun(" \(hidden)\(andMore ? "+" : "") more line\(hidden == 1 && !andMore ? "" : "s")")
        var last = kept[kept.count - 1]
        // Room for "…" then the marker: cut the last line's content to what is left.
        let room = max(0, width - marker.width - 1)
        // A space before the `…` where the row's words end whole (`someone. … 10 more lines`):
        // the marker is no part of the text then; a word cut short takes it right after.
        var gap = 0
        if last.isRubyReading {
            // Its base is cut off: the readings would stand over nothing.
            last.runs = last.runs.filter { $0.style.role == .quoteBar }
        } else {
            let spaced = Self.cut(last.runs, to: room - 1)
            if Self.endsAtWordEnd(spaced, of: last.runs) {
                gap = spaced.contains { $0.style.role != .quoteBar && !$0.clusters.isEmpty } ? 1 : 0
                last.runs = spaced
            } else {
                last.runs = Self.cut(last.runs, to: room)
            }
            // The readings over the cut row go no further than its text.
            // (`kept` may be shorter than `rows` when `andMore` cuts a layout that fits.)
            let above = kept.count - 2
            if above >= 0, kept[above].isRubyReading { kept[above].runs = Self.cut(kept[above].runs, to: room) }
        }
        var ellipsis = Self.markerRun("…")
        ellipsis.column = last.width + gap
        last.runs.append(ellipsis)
        var trailer = marker
        trailer.column = ellipsis.column + 1
        last.runs.append(trailer)
        kept[kept.count - 1] = last
        var result = TextLayout(width: width, lines: kept)
        result.isTruncated = true
        result.fullLineCount = lines.count
        return result
    }

    /// The layout with a line saying how much of the text was left out (`ShownBody`), offering
    /// all of it, or `nextBytes` more when that is less.
    func withShowMoreMarker(hiddenBytes: Int, nextBytes: Int) -> TextLayout {
        var result = self
        var marker = Self.markerRun(hiddenBytes <= nextBytes ? "show all" : "show \(ShownBody.describe(bytes: nextBytes)) more")
        marker.style.role = .showAllMarker
        var said = Self.markerRun("… \(ShownBody.describe(bytes: hiddenBytes)) more · ")
        said.style.role = .showAllMarker
        marker.column = said.width
        result.lines.append(Line(runs: [said, marker]))
        return result
    }

    /// The layout with a line counting the text left out after it (`ShownBody`), for print,
    /// where nothing can be clicked to show more; unchanged when nothing was.
    func withOmittedMarker(hiddenBytes: Int) -> TextLayout {
        guard hiddenBytes > 0 else { return self }
        var result = self
        result.lines.append(Line(runs: [Self.markerRun("… \(ShownBody.describe(bytes: hiddenBytes)) more, not printed")]))
        return result
    }

    /// The layout with `leading` rows above it (a reply's quote), laid out apart.
    func withLeadingLines(_ leading: [Line]) -> TextLayout {
        var result = self
        result.lines.insert(contentsOf: leading, at: 0)
        result.fullLineCount += leading.count
        return result
    }

    /// The layout with a last line offering to collapse it again.
    func withCollapseMarker() -> TextLayout {
        var result = self
        result.lines.append(Line(runs: [Self.markerRun("⌃ show less")]))
        return result
    }

    /// The style of the cell at a line and column, if there is one (for clicks).
    func style(line: Int, column: Int) -> TextRunStyle? {
        lines.indices.contains(line) ? lines[line].style(at: column) : nil
    }

    /// Every link in the layout with the lines it spans (a link cut by wrapping spans several)
    /// and the spoilers its text is in. A link that runs into a truncated layout's last line
    /// may be cut there, so it is left out: it is not shown whole.
    var links: [(url: String, lines: ClosedRange<Int>, spoilers: Set<Int>)] {
        var found: [(url: String, lines: ClosedRange<Int>, spoilers: Set<Int>)] = []
        var open: (url: String, first: Int, last: Int, spoilers: Set<Int>)?
        func close() {
            if let current = open, !(isTruncated && current.last == lines.count - 1) {
                found.append((current.url, current.first...current.last, current.spoilers))
            }
            open = nil
        }
        for (n, line) in lines.enumerated() {
            for run in line.runs where run.style.role == .text {
                if let current = open, current.url != run.style.link { close() }
                guard let url = run.style.link else { continue }
                if open == nil { open = (url, n, n, []) } else { open?.last = n }
                if let spoiler = run.style.spoiler { open?.spoilers.insert(spoiler) }
            }
        }
        close()
        return found
    }

    static func markerRun(_ text: String) -> Run {
        Run(column: 0, clusters: DisplayWidth.clusters(of: text), style: TextRunStyle(role: .expandMarker))
    }

    /// Whether `cut` (runs cut from `runs`) keeps all of their text, or stops where a space was.
    private static func endsAtWordEnd(_ cut: [Run], of runs: [Run]) -> Bool {
        let kept = cut.reduce(0) { $0 + $1.clusters.count }
        var seen = 0
        for run in runs {
            if kept < seen + run.clusters.count { return run.clusters[kept - seen].text == " " }
            seen += run.clusters.count
        }
        return true
    }

    /// Runs cut to end by `limit` columns (a wide cluster that would straddle it is dropped).
    static func cut(_ runs: [Run], to limit: Int) -> [Run] {
        var out: [Run] = []
        for var run in runs where run.column < limit {
            var x = run.column
            var kept: [DisplayCluster] = []
            for cluster in run.clusters {
                guard x + cluster.width <= limit else { break }
                kept.append(cluster)
                x += cluster.width
            }
            run.clusters = kept
            if !kept.isEmpty { out.append(run) }
        }
        // A cut line does not end in a space before the ellipsis.
        while var last = out.last, last.clusters.last?.text == " " {
            last.clusters.removeLast()
            out.removeLast()
            if !last.clusters.isEmpty { out.append(last) }
        }
        return out
    }
}
