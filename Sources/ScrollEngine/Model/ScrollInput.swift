/// A keyboard scroll command.
public enum ScrollKey: Hashable, Sendable, CaseIterable {
    /// One row towards the start.
    case rowUp
    /// One row towards the end.
    case rowDown
    /// One page (the viewport less one row of context) towards the start.
    case pageUp
    /// One page towards the end.
    case pageDown
    /// To the start.
    case top
    /// To the end (and keep following new items there).
    case bottom
}

/// One user input to a scroll view. Rows are viewport rows (0 is the top row of the view).
public enum ScrollInput: Hashable, Sendable {
    /// Wheel notches; positive scrolls towards the end of the content (offset grows).
    case wheel(notches: Int)
    /// A button went down on viewport row `row`.
    case press(row: Int)
    /// The pointer moved to viewport row `row` with the button down.
    case drag(row: Int)
    /// The button went up.
    case release
    /// A scroll key.
    case key(ScrollKey)
}

/// Where a row of an item should land in the viewport.
public enum ScrollAlignment: Hashable, Sendable {
    /// On the viewport's top row.
    case top
    /// On the viewport's middle row.
    case center
    /// On the viewport's bottom row.
    case bottom
}
