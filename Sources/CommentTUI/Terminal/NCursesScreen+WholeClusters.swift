extension NCursesScreen {
    /// The bytes that write the two columns after a whole cluster with a joiner again, in place
    /// (empty for a cluster without one, or where another whole cluster follows: its own bytes
    /// do it). tmux 3.3a keeps "the last character was a joiner" only within one read of the
    /// pane's output: when a read ends just after a joiner, the next character is drawn in a
    /// cell of its own, over the cluster's neighbour. Written again, the neighbour survives
    /// (the cluster then shows without its last parts until its row is drawn again).
    static func cellsAfterJoiner(of buffer: CellBuffer, column: Int, row: Int) -> String {
        let cell = buffer[column, row]
        guard cell.text.unicodeScalars.contains(where: { $0.value == 0x200D }) else { return "" }
        var out = ""
        var style: CellStyle?
        var next = column + Int(cell.width)
        // The stray character is at most two columns wide.
        while next < min(buffer.columns, column + Int(cell.width) + 2) {
            let following = buffer[next, row]
            if following.isContinuation { next += 1; continue }
            if ncursesMismeasures(following) { break }
            if following.style != style { out += CellBuffer.sgr(following.style) }
            out += following.text
            style = following.style
            next += Int(following.width)
        }
        guard !out.isEmpty else { return "" }
        return "\u{1B}[\(row + 1);\(column + Int(cell.width) + 1)H" + out + "\u{1B}[0m"
    }
}
