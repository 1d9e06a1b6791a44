import CNCursesW

extension NCursesScreen {
    /// Whether ncurses would give a cell another width than the terminal draws it with: a
    /// cluster the grapheme policy keeps whole (a family, a flag, `❤️`, a new emoji).
    static func ncursesMismeasures(_ cell: Cell) -> Bool {
        guard cell.width == 2 else { return false }
        var first = true
        var mismeasured = false
        cell.forEachScalar { scalar in
            if first {
                first = false
                mismeasured = DisplayWidth.libcWidth(scalar) != 2
            } else if DisplayWidth.libcWidth(scalar) != 0 || scalar.value == 0x200D {
                mismeasured = true
            }
        }
        return mismeasured
    }

    /// The clusters ncurses holds placeholders for, in the rows it may have touched, then the
    /// cursor back where ncurses believes it is. ncurses leaves the terminal in normal
    /// attributes after an update, and so do these bytes.
    func wholeClusters(of buffer: CellBuffer, rows: Set<Int>, returningCursor: Bool) -> String {
        // With every kind substituted, ncurses and the terminal agree on every cell.
        guard DisplayWidth.policy.drawsSomeWhole else { return "" }
        var out = ""
        for row in rows.sorted() where row < buffer.rows {
            for column in 0..<buffer.columns {
                let cell = buffer[column, row]
                guard Self.ncursesMismeasures(cell) else { continue }
                out += "\u{1B}[\(row + 1);\(column + 1)H" + sgrAsNcursesDraws(column: column, row: row, cell.style) + cell.text + "\u{1B}[0m"
                out += cellsAfterJoiner(of: buffer, column: column, row: row)
            }
        }
        guard !out.isEmpty, returningCursor else { return out }
        var y: Int32 = 0, x: Int32 = 0
        ctui_physical_cursor(&y, &x)
        return out + "\u{1B}[\(y + 1);\(x + 1)H"
    }

    /// The bytes that write the two columns after a whole cluster with a joiner again, in place
    /// (empty for a cluster without one, or where another whole cluster follows: its own bytes
    /// do it). tmux 3.3a keeps "the last character was a joiner" only within one read of the
    /// pane's output: when a read ends just after a joiner, the next character is drawn in a
    /// cell of its own, over the cluster's neighbour. Written again, the neighbour survives
    /// (the cluster then shows without its last parts until its row is drawn again).
    func cellsAfterJoiner(of buffer: CellBuffer, column: Int, row: Int) -> String {
        let cell = buffer[column, row]
        guard cell.text.unicodeScalars.contains(where: { $0.value == 0x200D }) else { return "" }
        var out = ""
        var style: CellStyle?
        var next = column + Int(cell.width)
        // The stray character is at most two columns wide.
        while next < min(buffer.columns, column + Int(cell.width) + 2) {
            let following = buffer[next, row]
            if following.isContinuation { next += 1; continue }
            if Self.ncursesMismeasures(following) { break }
            if following.style != style { out += sgrAsNcursesDraws(column: next, row: row, following.style) }
            out += following.text
            style = following.style
            next += Int(following.width)
        }
        guard !out.isEmpty else { return "" }
        return "\u{1B}[\(row + 1);\(column + Int(cell.width) + 1)H" + out + "\u{1B}[0m"
    }

    /// The SGR sequence for bytes written past ncurses at (`column`, `row`): the look ncurses
    /// gave that cell, so it matches its neighbours. Its colours come from the cell's colour
    /// pair (a colour the terminal lacks is the default one there, a style past the last pair
    /// has none), its attributes are those of `style` the terminal has.
    func sgrAsNcursesDraws(column: Int, row: Int, _ style: CellStyle) -> String {
        var wide = [wchar_t](repeating: 0, count: 8)
        var attributes: attr_t = 0
        var pair: Int16 = 0
        guard ctui_get_cell(ctui_stdscr(), Int32(row), Int32(column), &wide, 8, &attributes, &pair) != ctui_err() else {
            return CellBuffer.sgr(style)
        }
        let supported = term_attrs()
        var shown = CellStyle()
        let attributeBits: [(TextAttributes, attr_t)] = [
            (.bold, ctui_attr_bold()), (.dim, ctui_attr_dim()), (.italic, ctui_attr_italic()),
            (.underline, ctui_attr_underline()), (.reverse, ctui_attr_reverse()),
        ]
        for (attribute, bit) in attributeBits where style.attributes.contains(attribute) && supported & bit != 0 {
            shown.attributes.insert(attribute)
        }
        var foreground: Int16 = -1, background: Int16 = -1
        if pair > 0, pair_content(pair, &foreground, &background) != ctui_err() {
            shown.foreground = foreground < 0 ? .default : .palette(UInt8(clamping: foreground))
            shown.background = background < 0 ? .default : .palette(UInt8(clamping: background))
        }
        return CellBuffer.sgr(shown)
    }
}
