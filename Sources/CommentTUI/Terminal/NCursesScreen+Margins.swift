import CNCursesW

/// The feed's scrolls made by the client, and when the scroll margins it keeps set
/// (`FrameOutputRewriter`) must go first.
extension NCursesScreen {
    /// Scrolls the terminal by a frame's hint: ncurses' picture, already moved (`wscrl`), is
    /// brought to the screen by an update of ncurses' own that is never sent, so its books
    /// (what the screen shows, its line hashes, where the cursor is) stay its own; the
    /// terminal gets the margins, if they change, and SD or SU. ncurses' scroll detection
    /// would move the region in pieces wherever lines repeat (blank lines, a name and date
    /// shown twice) and redraw the rest; this moves exactly what the feed moved.
    ///
    /// The cursor stays where the last frame left it (the caret), which is where ncurses'
    /// update is told it is; a hidden cursor goes home.
    func scrollTerminal(_ scroll: FrameScroll) -> [UInt8] {
        let window = ctui_stdscr()
        let parked = caretLeft ?? CursorPosition(column: 0, row: 0)
        leaveok(window, false)
        wmove(window, Int32(parked.row), Int32(parked.column))
        wnoutrefresh(window)
        doupdate()
        _ = stage.take()
        var bytes: [UInt8] = []
        let region = scroll.rows.lowerBound...(scroll.rows.upperBound - 1)
        if rewriter.keep(region) {
            // DECSTBM homes the cursor: DECSC and DECRC keep the caret, and leave it saved.
            let margins = FrameOutputRewriter.margins(region)
            bytes += caretLeft == nil ? margins : [0x1B, 0x37] + margins + [0x1B, 0x38]
            savedCaret = caretLeft
        } else if caretLeft == nil {
            bytes += Array("\u{1B}[H".utf8)
        }
        return bytes + FrameOutputRewriter.scroll(up: scroll.shift)
    }

    /// Whether ncurses' scroll detection might move a block that reaches the screen's last
    /// row: then it scrolls with insert/delete line or a whole-screen index, which take the
    /// margins to be the whole screen. Its other scrolls set their own margins.
    ///
    /// ncurses pairs lines by a hash of each cell's first character; a block reaches the last
    /// row only if the last row's line, old or new, pairs with another row's. `old` and `new`
    /// are the rows' hashes (`ncursesHashes`) on screen and in the frame to show.
    static func lastRowMayScroll(old: [UInt], new: [UInt]) -> Bool {
        guard old.count == new.count, let oldLast = old.last, let newLast = new.last else { return true }
        for row in 0..<(new.count - 1) where new[row] == oldLast || old[row] == newLast { return true }
        return false
    }

    /// ncurses' line hash (lib `hashmap.c`) of each row of `buffer`: `h += (h << 5) + c` over
    /// each cell's first character as ncurses holds it (a placeholder for a cluster it cannot
    /// measure, the lead's character in a wide cluster's right half). `known` are the hashes of
    /// the rows before `changes` (all rows are hashed when it does not fit).
    static func ncursesHashes(of buffer: CellBuffer, from known: [UInt], changes: [CellChange]) -> [UInt] {
        guard known.count == buffer.rows else { return (0..<buffer.rows).map { ncursesHash(of: buffer, row: $0) } }
        var hashes = known
        for row in Set(changes.map(\.row)) { hashes[row] = ncursesHash(of: buffer, row: row) }
        return hashes
    }

    /// The hashes as a frame's scroll moves the rows; rows scrolled in are blank.
    static func shiftingHashes(_ hashes: [UInt], _ scroll: FrameScroll, columns: Int) -> [UInt] {
        guard scroll.rows.upperBound <= hashes.count else { return [] }
        var result = hashes
        let blank = (0..<columns).reduce(UInt(0)) { hash, _ in hash &+ (hash << 5) &+ 0x20 }
        for row in scroll.rows {
            let source = row + scroll.shift
            result[row] = scroll.rows.contains(source) ? hashes[source] : blank
        }
        return result
    }

    private static func ncursesHash(of buffer: CellBuffer, row: Int) -> UInt {
        let placeholders = !DisplayWidth.policy.intact.isEmpty
        return buffer.cells.withUnsafeBufferPointer { cells in
            var hash: UInt = 0
            var lead: UInt = 0x20
            for cell in cells[(row * buffer.columns)..<((row + 1) * buffer.columns)] {
                if !cell.isContinuation {
                    lead = placeholders && ncursesMismeasures(cell) ? UInt(placeholder) : UInt(cell.firstScalarValue)
                }
                hash = hash &+ (hash << 5) &+ lead
            }
            return hash
        }
    }
}
