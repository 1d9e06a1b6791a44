/// Where the cursor sits after a frame, if it is shown.
public struct CursorPosition: Equatable, Sendable {
    public var column: Int
    public var row: Int
    public init(column: Int, row: Int) { self.column = column; self.row = row }
}

/// A finished frame: the cells and the cursor.
/// Rows of a frame whose content moved as a block: `rows` moved up by `shift` (down when negative).
public struct FrameScroll: Equatable, Sendable {
    public var rows: Range<Int>
    public var shift: Int
    public init(rows: Range<Int>, shift: Int) { self.rows = rows; self.shift = shift }
}

public struct Frame: Equatable, Sendable {
    public var buffer: CellBuffer
    public var cursor: CursorPosition?
    /// Whether showing the frame rings the terminal bell (a comment mentioning the reader arrived).
    public var ringsBell = false
    /// A desktop notification's escape (`TerminalNotification`), written to the terminal as it
    /// is after the frame, outside the screen's picture; empty for none.
    public var notification: [UInt8] = []
    /// Rows whose content moved up by `shift` rows (down when negative) since the last frame:
    /// a backend may scroll them instead of redrawing them. Only a hint; the diff stays exact.
    public var scroll: FrameScroll?
    /// The composer's rows: a frame that changes only these (typing) is not worth a
    /// synchronized update, which costs 16 bytes and a keystroke echo should cost under 10.
    var composerRows: Range<Int> = 0..<0
    /// Whether the terminal should report pointer motion without a button (F2's hit-test
    /// inspector names the layer under the pointer); off otherwise, to keep input quiet.
    var reportsPointerMotion = false
    /// What the feed showed, for the app once the frame is on screen (nil: the feed was covered).
    var feedShown: FeedView.Drawn?
    public init(buffer: CellBuffer, cursor: CursorPosition?) { self.buffer = buffer; self.cursor = cursor }
}

/// Something that shows frames: the ncurses terminal, or a headless screen in tests.
public protocol ScreenBackend: AnyObject {
    /// The current size in columns and rows.
    var size: (columns: Int, rows: Int) { get }
    /// Shows a frame, writing only what differs from the last one unless `full` is set.
    func present(_ frame: Frame, full: Bool)
}

/// An in-memory screen: keeps what was presented, so tests can read the screen.
public final class HeadlessScreen: ScreenBackend {
    public private(set) var size: (columns: Int, rows: Int)
    /// The cells as a terminal would now show them.
    public private(set) var screen: CellBuffer
    /// Where the cursor was left.
    public private(set) var cursor: CursorPosition?
    /// Frames presented so far.
    public private(set) var frameCount = 0
    /// Cells written by the last frame.
    public private(set) var lastWrittenCells = 0
    /// Times the bell rang.
    public private(set) var bellCount = 0
    /// The notification escapes frames carried, in order.
    public private(set) var notifications: [[UInt8]] = []

    public init(columns: Int, rows: Int) {
        size = (columns, rows)
        screen = CellBuffer(columns: columns, rows: rows)
    }

    /// Changes the size, as a terminal resize would.
    public func resize(columns: Int, rows: Int) {
        size = (columns, rows)
        screen = CellBuffer(columns: columns, rows: rows)
    }

    public func present(_ frame: Frame, full: Bool) {
        let changes = frame.buffer.changes(from: full ? nil : screen)
        if full || screen.columns != frame.buffer.columns || screen.rows != frame.buffer.rows {
            screen = CellBuffer(columns: frame.buffer.columns, rows: frame.buffer.rows)
        }
        screen.apply(changes)
        lastWrittenCells = changes.reduce(0) { $0 + $1.cells.count }
        cursor = frame.cursor
        frameCount += 1
        if frame.ringsBell { bellCount += 1 }
        if !frame.notification.isEmpty { notifications.append(frame.notification) }
    }

    /// The screen's rows with trailing blanks removed.
    public var lines: [String] { screen.trimmedLines }
}
