import Foundation

/// Draws laid-out comment text into a cell buffer, as a `TextRenderer` draws a `Text` layout:
/// it walks lines, runs and cells, and the runs' styles choose the effects.
///
/// Spoilers not yet revealed are masked cell for cell, so revealing one moves nothing.
/// Strikethrough, which curses has no attribute for, is a combining long stroke on each cell.
struct CommentRenderer {
    /// Spoilers of this comment the reader revealed.
    var revealedSpoilers: Set<Int> = []
    /// The reader's user id: mentions of them stand out more.
    var ownUserID: String?

    /// The cell masking one column of a hidden spoiler.
    static let spoilerMask = DisplayCluster(text: "░", width: 1)
    static let strikeMark: Unicode.Scalar = "\u{0336}"

    /// Draws one line with its column 0 at `column`, cut at `limit`.
    func draw(_ line: TextLayout.Line, into buffer: inout CellBuffer, column: Int, row: Int, limit: Int) {
        for run in line.runs {
            var x = column + run.column
            let style = cellStyle(run.style)
            if let spoiler = run.style.spoiler, !revealedSpoilers.contains(spoiler) {
                for _ in 0..<run.width { x = buffer.put(Self.spoilerMask, column: x, row: row, style: style, limit: limit) }
                continue
            }
            for cluster in run.clusters {
                let shown = run.style.strikethrough ? Self.struck(cluster) : cluster
                x = buffer.put(shown, column: x, row: row, style: style, limit: limit)
            }
        }
    }

    /// The cell style for a run.
    func cellStyle(_ run: TextRunStyle) -> CellStyle {
        switch run.role {
        case .quoteBar: return Theme.quoteBar
        case .listMarker: return Theme.listMarker
        case .headingMarker: return Theme.headingMarker
        case .linkHost: return Theme.linkHost
        case .expandMarker: return Theme.expandMarker
        case .rubyReading:
            if let spoiler = run.spoiler, !revealedSpoilers.contains(spoiler) { return Theme.spoiler }
            return Theme.rubyReading
        case .text: break
        }
        if let spoiler = run.spoiler, !revealedSpoilers.contains(spoiler) { return Theme.spoiler }
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
