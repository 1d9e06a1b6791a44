/// Rewrites what ncurses wrote for a frame into fewer bytes with the same effect on the screen,
/// and holds the scroll margins the client keeps set on the terminal.
///
/// ncurses scrolls part of the screen by setting the terminal's margins around it, moving the
/// cursor to its edge, scrolling, and setting the margins back to the whole screen: 22 bytes
/// for the feed's one-row step. The client keeps the margins set from one scroll to the next
/// instead, and scrolls with SD/SU, which need no cursor move: 3 bytes. The feed's scrolls are
/// made so by the screen itself (`NCursesScreen.scrollTerminal`); scrolls ncurses finds on its
/// own (a list, the pager) are rewritten here. ncurses takes the margins to be the whole screen
/// between its scrolls, and nothing it writes then depends on them except a scroll of a block
/// that reaches the screen's last row, which the screen rules out before each update
/// (`NCursesScreen.lastRowMayScroll`).
///
/// Only sequences ncurses wrote reach this: content never carries an escape (`DisplayWidth`
/// turns controls into placeholders), so every ESC here starts one of ncurses' sequences.
struct FrameOutputRewriter {
    /// The terminal's scroll margins as the rewritten output leaves them, rows counted from 0;
    /// nil when they are the whole screen.
    private(set) var keptRegion: ClosedRange<Int>?
    /// Whether ncurses' region scrolls are rewritten at all: the terminal sets margins with
    /// DECSTBM and has DECSC/DECRC, and holds the cursor at the right margin after the last
    /// column (`xenl`), so no character written in a frame wraps into a scroll.
    let keepsRegion: Bool
    /// Whether the terminal scrolls its margins with SD and SU (`rin`, `indn`).
    let scrollsWithoutCursor: Bool

    init(keepsRegion: Bool, scrollsWithoutCursor: Bool) {
        self.keepsRegion = keepsRegion
        self.scrollsWithoutCursor = scrollsWithoutCursor
    }

    /// DECSTBM for rows `region`, counted from 0.
    static func margins(_ region: ClosedRange<Int>) -> [UInt8] {
        Array("\u{1B}[\(region.lowerBound + 1);\(region.upperBound + 1)r".utf8)
    }

    /// The bytes that give the terminal whole-screen margins again, the cursor kept where it
    /// is (DECSTBM homes it): before the shell gets the terminal, or a frame ncurses might
    /// scroll in its own way.
    mutating func releaseRegion(rows: Int) -> [UInt8] {
        guard keptRegion != nil else { return [] }
        keptRegion = nil
        return [0x1B, 0x37] + Self.margins(0...(rows - 1)) + [0x1B, 0x38]
    }

    /// Forgets the kept margins: the terminal reset them (a resume sets them itself).
    mutating func forgetRegion() { keptRegion = nil }

    /// Takes `region` as the margins from now on; true if the terminal does not have them yet.
    mutating func keep(_ region: ClosedRange<Int>) -> Bool {
        defer { keptRegion = region }
        return keptRegion != region
    }

    /// SU (up, positive) or SD (down) by `rows` rows within the margins; the cursor stays.
    static func scroll(up rows: Int) -> [UInt8] {
        let count = abs(rows) == 1 ? "" : "\(abs(rows))"
        return Array("\u{1B}[\(count)\(rows > 0 ? "S" : "T")".utf8)
    }

    /// Rewrites one frame's output from ncurses for a screen of `rows` rows; `savesCursor`
    /// says whether what remains still uses DECSC (so the slot no longer holds what it held).
    mutating func rewrite(_ bytes: [UInt8], rows: Int) -> (bytes: [UInt8], savesCursor: Bool) {
        guard bytes.contains(0x1B) else { return (bytes, false) }
        let pieces = OutputPiece.split(bytes)
        guard keepsRegion else { return (bytes, pieces.contains { $0.kind == .escape(UInt8(ascii: "7")) }) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var savesCursor = false
        var k = 0
        while k < pieces.count {
            if let block = scrollBlock(in: pieces, at: k, bytes: bytes, rows: rows) {
                out += rewritten(block, pieces: pieces, bytes: bytes, savesCursor: &savesCursor)
                k = block.end
                continue
            }
            let piece = pieces[k]
            if piece.kind == .csi(UInt8(ascii: "r")) {
                // Margins set outside a scroll of ncurses' own: the terminal now has them.
                let region = Self.region(of: piece, bytes: bytes, rows: rows)
                keptRegion = region == 0...(rows - 1) ? nil : region
            }
            if piece.kind == .escape(UInt8(ascii: "7")) { savesCursor = true }
            out += bytes[piece.range]
            k += 1
        }
        return (out, savesCursor)
    }

    /// One of ncurses' region scrolls: [DECSC] margins [DECRC] moves and the scroll, then the
    /// whole screen's margins again.
    private struct ScrollBlock {
        var region: ClosedRange<Int>
        /// Piece indices: the opening (DECSC or margins) through DECRC, if any; the middle; the end.
        var opening: Range<Int>
        var middle: Range<Int>
        var end: Int
    }

    private func scrollBlock(in pieces: [OutputPiece], at k: Int, bytes: [UInt8], rows: Int) -> ScrollBlock? {
        var i = k
        let saved = pieces[i].kind == .escape(UInt8(ascii: "7"))
        if saved { i += 1 }
        guard i < pieces.count, pieces[i].kind == .csi(UInt8(ascii: "r")),
              let region = Self.region(of: pieces[i], bytes: bytes, rows: rows), region != 0...(rows - 1) else { return nil }
        i += 1
        if saved {
            guard i < pieces.count, pieces[i].kind == .escape(UInt8(ascii: "8")) else { return nil }
            i += 1
        }
        let middleStart = i
        while i < pieces.count, pieces[i].kind != .csi(UInt8(ascii: "r")) { i += 1 }
        guard i < pieces.count, Self.region(of: pieces[i], bytes: bytes, rows: rows) == 0...(rows - 1) else { return nil }
        return ScrollBlock(region: region, opening: k..<middleStart, middle: middleStart..<i, end: i + 1)
    }

    private mutating func rewritten(_ block: ScrollBlock, pieces: [OutputPiece], bytes: [UInt8],
                                    savesCursor: inout Bool) -> [UInt8] {
        defer { keptRegion = block.region }
        let settingMargins = keptRegion != block.region
        if scrollsWithoutCursor, let scroll = Self.scroll(in: pieces[block.middle], bytes: bytes) {
            // The margins (if they change) and the scroll; ncurses takes the cursor to be
            // lost after its scroll, so leaving it where DECSTBM or the last frame put it is fine.
            let margins = settingMargins ? Self.margins(block.region) : []
            return margins + scroll.styles + Self.scroll(up: scroll.rows)
        }
        // Moves this terminal has no shorter form for: ncurses' own, made for these margins.
        var out: [UInt8] = []
        if settingMargins {
            for piece in pieces[block.opening] { out += bytes[piece.range] }
            if pieces[block.opening.lowerBound].kind == .escape(UInt8(ascii: "7")) { savesCursor = true }
        }
        for piece in pieces[block.middle] {
            if piece.kind == .escape(UInt8(ascii: "7")) { savesCursor = true }
            out += bytes[piece.range]
        }
        return out
    }

    /// The rows a scroll's middle moves (up when positive) and the attribute changes in it, if
    /// it holds nothing but cursor moves, attributes and one kind of scroll.
    private static func scroll(in middle: ArraySlice<OutputPiece>, bytes: [UInt8]) -> (rows: Int, styles: [UInt8])? {
        var up = 0, down = 0
        var styles: [UInt8] = []
        for piece in middle {
            switch piece.kind {
            case .escape(UInt8(ascii: "M")): down += 1
            case .control(0x0A): up += 1
            case .csi(UInt8(ascii: "T")), .csi(UInt8(ascii: "S")):
                guard let numbers = piece.numbers(in: bytes), numbers.count <= 1 else { return nil }
                let n = (numbers.first ?? nil) ?? 1
                guard n > 0 else { return nil }
                if piece.kind == .csi(UInt8(ascii: "T")) { down += n } else { up += n }
            case .csi(let final) where Self.cursorMoves.contains(final): continue
            case .control(0x0D), .control(0x08), .control(0x09): continue
            case .csi(UInt8(ascii: "m")), .designation, .control(0x0E), .control(0x0F): styles += bytes[piece.range]
            default: return nil
            }
        }
        guard (up == 0) != (down == 0) else { return nil }
        return (up - down, styles)
    }

    /// CSI finals ncurses moves the cursor with: CUP, CUU/CUD/CUF/CUB, CHA, VPA, HPA.
    private static let cursorMoves: Set<UInt8> = Set("HABCDGd`".utf8)

    /// The rows a DECSTBM sets, from 0 (no parameters: the whole screen).
    private static func region(of piece: OutputPiece, bytes: [UInt8], rows: Int) -> ClosedRange<Int>? {
        guard let numbers = piece.numbers(in: bytes) else { return nil }
        let top = (numbers.first ?? nil) ?? 1, bottom = (numbers.count > 1 ? numbers[1] : nil) ?? rows
        guard top >= 1, bottom > top, bottom <= rows else { return nil }
        return (top - 1)...(bottom - 1)
    }
}
