/// A size in terminal cells.
public struct ScrollSize: Hashable, Sendable {
    /// Height in rows.
    public var rows: Int
    /// Width in columns.
    public var columns: Int

    /// Creates a size of `rows` × `columns` cells.
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// Extra scrollable space before and after the content, in rows.
public struct ScrollInsets: Hashable, Sendable {
    /// Rows of space above the first item.
    public var top: Int
    /// Rows of space below the last item.
    public var bottom: Int

    /// Creates insets of `top` and `bottom` rows.
    public init(top: Int = 0, bottom: Int = 0) {
        self.top = top
        self.bottom = bottom
    }

    /// No insets.
    public static let zero = ScrollInsets()
}

/// Everything about a scroll view's extent and position, like SwiftUI's `ScrollGeometry`.
///
/// Only the vertical axis scrolls: the content is as wide as the container.
public struct ScrollGeometry: Hashable, Sendable {
    /// The size of the viewport.
    public var containerSize: ScrollSize
    /// The size of the content (sum of item heights; excludes insets).
    public var contentSize: ScrollSize
    /// The row of the content at the top of the viewport; negative inside the top inset.
    public var contentOffset: Double
    /// Extra scrollable space around the content.
    public var contentInsets: ScrollInsets

    /// Creates a geometry from its parts.
    public init(containerSize: ScrollSize, contentSize: ScrollSize, contentOffset: Double, contentInsets: ScrollInsets) {
        self.containerSize = containerSize
        self.contentSize = contentSize
        self.contentOffset = contentOffset
        self.contentInsets = contentInsets
    }

    /// The smallest legal offset (the top inset fully shown).
    public var minOffset: Double { Double(-contentInsets.top) }

    /// The largest legal offset (the bottom inset's last row on the viewport's last row).
    public var maxOffset: Double {
        max(minOffset, Double(contentSize.rows + contentInsets.bottom - containerSize.rows))
    }

    /// The offset as drawn: offsets are fractional while moving but drawn at whole rows.
    public var drawnOffset: Int { Int((contentOffset + 1e-9).rounded(.down)) }

    /// Whether the viewport shows the end of the content.
    public var isAtBottom: Bool { contentOffset >= maxOffset - 1e-9 }
}
