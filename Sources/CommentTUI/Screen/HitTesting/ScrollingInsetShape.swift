import ScrollEngine

/// The hit shape of a scrolling frame whose content begins with a transparent inset: the frame
/// minus the inset rows still visible, so clicks there reach whatever is drawn below.
///
/// The SwiftUI collapsing-header and mentions talk's (DESIGN.md §1)
/// `.contentShape(Rectangle().size(w, h − offset).offset(y: offset))` with
/// `offset = max(inset.frame.maxY, 0)`: as the content scrolls up, the inset scrolls away and the
/// frame covers more of the view below. (The mention list over the feed is one such frame.)
public enum ScrollingInsetShape {
    /// The inset's bottom edge in frame rows (`inset.frame.maxY`), clamped to the frame: the
    /// number of transparent rows at the top of the frame. `contentOffset` counts from the
    /// inset's first row and is drawn at whole rows.
    public static func visibleInsetRows(frameHeight: Int, insetRows: Int, contentOffset: Double) -> Int {
        let drawn = Int((contentOffset + 1e-9).rounded(.down))
        return min(max(insetRows - drawn, 0), max(0, frameHeight))
    }

    /// The frame minus the visible inset rows at its top.
    public static func shape(frame: CellRect, insetRows: Int, contentOffset: Double) -> HitShape {
        let transparent = visibleInsetRows(frameHeight: frame.height, insetRows: insetRows, contentOffset: contentOffset)
        return HitShape(CellRect(column: frame.column, row: frame.row + transparent,
                                 width: frame.width, height: frame.height - transparent))
    }

    /// The shape for a frame whose inset is its scroll model's top content inset (offsets start
    /// at `-insets.top`, where the whole inset shows).
    public static func shape(frame: CellRect, geometry: ScrollGeometry) -> HitShape {
        shape(frame: frame, insetRows: geometry.contentInsets.top,
              contentOffset: geometry.contentOffset + Double(geometry.contentInsets.top))
    }
}
