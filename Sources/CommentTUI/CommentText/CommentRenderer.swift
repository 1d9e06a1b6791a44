import Foundation
import ScrollEngine

/// Draws laid-out comment text into a cell buffer, as a `TextRenderer` draws a `Text` layout:
/// it walks lines, runs and cells, and the runs' styles choose the effects.
///
/// Spoilers not yet revealed are masked cell for cell, so revealing one moves nothing; while a
/// spoiler's `TextEffect` runs, its cells are uncovered (or covered) one by one in an order
/// scattered by the comment's seed, each exactly once. Strikethrough, which curses has no
/// attribute for, is a combining long stroke on each cell.
struct CommentRenderer {
    /// Spoilers of this comment the reader revealed.
    var revealedSpoilers: Set<Int> = []
    /// The reader's user id: mentions of them stand out more.
    var ownUserID: String?
    /// Effects running on this comment, and the frame's time they are drawn at.
    var effects: [TextEffect] = []
    var time = ScrollInstant.zero
    /// Scatters the dissolve's order (see `seed(of:)`), so each comment dissolves its own way.
    var seed: UInt64 = 0
    /// Cells where a search's query shows, as column ranges by line number (`MatchCells`).
    var matches: [Int: [Range<Int>]] = [:]

    /// The cell masking one column of a hidden spoiler.
    static let spoilerMask = DisplayCluster(text: "░", width: 1)
    static let strikeMark: Unicode.Scalar = "\u{0336}"

    /// Draws one line (line `number` of its layout) with its column 0 at `column`, cut at `limit`;
    /// the search's matches on it stand out.
    func draw(_ line: TextLayout.Line, number: Int = 0, into buffer: inout CellBuffer, column: Int, row: Int, limit: Int) {
        drawRuns(line, number: number, into: &buffer, column: column, row: row, limit: limit)
        for columns in matches[number] ?? [] {
            buffer.restyle(row: row, from: column + columns.lowerBound, to: min(limit, column + columns.upperBound)) { $0 = Theme.searchMatch }
        }
    }

    private func drawRuns(_ line: TextLayout.Line, number: Int, into buffer: inout CellBuffer, column: Int, row: Int, limit: Int) {
        for run in line.runs {
            var x = column + run.column
            let style = cellStyle(run.style)
            guard let spoiler = run.style.spoiler else {
                for cluster in run.clusters { x = buffer.put(drawn(cluster, run.style), column: x, row: row, style: style, limit: limit) }
                continue
            }
            let dissolve = effects.lazy.compactMap { effect -> (progress: Double, revealing: Bool)? in
                guard case .spoiler(spoiler, let revealing) = effect.kind else { return nil }
                return (effect.progress(at: time), revealing)
            }.first
            let shownStyle = cellStyle(run.style, revealed: true)
            for cluster in run.clusters {
                var shown = revealedSpoilers.contains(spoiler)
                if let dissolve {
                    let rank = Self.rank(seed: seed, spoiler: spoiler, line: number, column: x - column)
                    shown = dissolve.revealing == (rank < dissolve.progress)
                }
                if shown {
                    x = buffer.put(drawn(cluster, run.style), column: x, row: row, style: shownStyle, limit: limit)
                } else {
                    for _ in 0..<cluster.width { x = buffer.put(Self.spoilerMask, column: x, row: row, style: Theme.spoiler, limit: limit) }
                }
            }
        }
    }

    private func drawn(_ cluster: DisplayCluster, _ style: TextRunStyle) -> DisplayCluster {
        style.strikethrough ? Self.struck(cluster) : cluster
    }

    /// Where a spoiler's cell falls in its dissolve, in [0, 1): the cell changes when the
    /// effect's progress passes it, so every cell changes exactly once, in a scattered order.
    static func rank(seed: UInt64, spoiler: Int, line: Int, column: Int) -> Double {
        // SplitMix64's finalizer over the cell's place: cheap, and well spread for neighbours.
        var z = seed &+ UInt64(truncatingIfNeeded: spoiler) &* 0x9E37_79B9_7F4A_7C15
            &+ UInt64(truncatingIfNeeded: line) &* 0xBF58_476D_1CE4_E5B9 &+ UInt64(truncatingIfNeeded: column) &* 0x94D0_49BB_1331_11EB
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(UInt64(1) << 53)
    }

    /// A stable seed for a comment (FNV-1a of its id): the same comment dissolves the same way.
    static func seed(of commentID: String) -> UInt64 {
        commentID.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// The cell style for a run (a spoiler's as revealed when `revealed`, else as it stands).
    func cellStyle(_ run: TextRunStyle, revealed: Bool? = nil) -> CellStyle {
        switch run.role {
        case .quoteBar: return Theme.quoteBar
        case .listMarker: return Theme.listMarker
        case .headingMarker: return Theme.headingMarker
        case .linkHost: return Theme.linkHost
        case .expandMarker, .showAllMarker: return Theme.expandMarker
        case .maskedSpoiler: return Theme.spoiler
        case .rubyReading:
            if let spoiler = run.spoiler, !revealedSpoilers.contains(spoiler) { return Theme.spoiler }
            return Theme.rubyReading
        case .text: break
        }
        if let spoiler = run.spoiler, !(revealed ?? revealedSpoilers.contains(spoiler)) { return Theme.spoiler }
        var style = Theme.body
        if run.code || run.codeBlock { style = Theme.code }
        if let mention = run.mention { style = mention == ownUserID ? Theme.mentionOfMe : Theme.mention }
        if run.link != nil { style = Theme.link }
        if run.quoteDepth > 0, run.mention == nil, run.link == nil, !run.code { style.foreground = Theme.quoteText.foreground }
        if run.strong { style.attributes.insert(.bold) }
        if run.emphasis { style.attributes.insert(.italic) }
        return style
    }

    /// A cluster with a long stroke over it, if it has room for one more mark.
    static func struck(_ cluster: DisplayCluster) -> DisplayCluster {
        guard cluster.text.unicodeScalars.count <= DisplayWidth.maxCombiningMarks else { return cluster }
        var text = cluster.text
        text.unicodeScalars.append(strikeMark)
        return DisplayCluster(text: text, width: cluster.width)
    }
}
