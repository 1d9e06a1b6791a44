import ScrollEngine

/// Where each part of the screen goes, top to bottom: the thread header's fixed rows, the feed,
/// a rule, the composer, and the status bar on the last row.
struct ScreenRegions: Equatable {
    var header: CellRect
    var feed: CellRect
    var composerRule: Int
    var composer: CellRect
    var status: Int

    /// The regions of a screen whose composer wants `composerRows` rows (at most `composerMaximum`).
    init(columns: Int, rows: Int, composerRows: Int, composerMaximum: Int) {
        let height = min(composerRows, composerMaximum)
        status = rows - 1
        composer = CellRect(column: 0, row: status - height, width: columns, height: height)
        composerRule = composer.row - 1
        header = CellRect(column: 0, row: 0, width: columns, height: HeaderView.collapsedHeight)
        feed = CellRect(column: 0, row: header.maxRow, width: columns, height: composer.row - 1 - header.maxRow)
    }

    /// The composer's rows with the rule above it: what a click on the composer hits.
    var composerWithRule: CellRect {
        CellRect(column: composer.column, row: composerRule, width: composer.width, height: composer.maxRow - composerRule)
    }

    /// The status bar's row.
    var statusBar: CellRect { CellRect(column: 0, row: status, width: composer.width, height: 1) }
}
