import CNCursesW
#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

/// The ncurses backend: the only type that talks to ncurses.
///
/// ncurses does output only: cells in, minimal bytes out. Input is read from the descriptor by
/// the loop and decoded by `InputDecoder`, so ncurses' keypad and mouse handling stay off.
/// ncurses writes into a `FrameStage`; each frame reaches the terminal in one `write()`.
public final class NCursesScreen: ScreenBackend {
    private let screen: OpaquePointer
    private let terminal: FileDescriptor
    private let keyboard: FileDescriptor
    let stage: FrameStage
    /// The terminal's settings before the client took it, while it holds it.
    private var shellSettings: termios?
    /// The modes the client turns on while it holds the screen, and what turns them off.
    private var modesOn: String
    private var modesOff: String
    private var colorPairs: [ColorKey: Int16] = [:]
    private var hasColors = false
    private var isActive = true

    private struct ColorKey: Hashable { var foreground: TerminalColor; var background: TerminalColor }

    /// Starts ncurses on the given streams (the terminal, or a file in tests).
    ///
    /// - Parameters:
    ///   - terminalType: terminfo name; nil uses `$TERM`.
    ///   - output: where frames go, one `write()` each, to its descriptor (a `tmpfile()` works).
    ///   - input: the terminal whose modes the client sets (when it is one).
    ///   - enableModes: whether to turn on mouse tracking and bracketed paste.
    ///   - beforeScreen: written once the terminal is the client's (no echo) but before the
    ///     screen is taken, on the shell's line: the grapheme probe.
    ///   - usesColor: false leaves ncurses' colours off (`NO_COLOR`): `colorCount` is then 0.
    public init(terminalType: String?, output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>, enableModes: Bool,
                beforeScreen: String = "", usesColor: Bool = true) throws {
        let stage = try FrameStage()
        // ncurses writes to a file and cannot ask the terminal its size: it takes $LINES and
        // $COLUMNS, else terminfo's (the Linux console's entry has none), and the client resizes
        // it from the terminal at once. A number there outside the clamp (65,535 failed
        // newterm) is dropped first, so it never sizes anything.
        for (name, limit) in [("LINES", TerminalDevice.maxRows), ("COLUMNS", TerminalDevice.maxColumns)] {
            guard let value = ProcessEnvironment.value(of: name) else { continue }
            if !(Int(value).map { (1...limit).contains($0) } ?? false) { ProcessEnvironment.remove(name) }
        }
        let created: OpaquePointer? = terminalType.map { newterm($0, stage.stream, input) } ?? newterm(nil, stage.stream, input)
        guard let created else {
            stage.close()
            throw SystemError("cannot start ncurses for terminal type \(terminalType ?? "$TERM")", code: 0)
        }
        screen = created
        self.stage = stage
        fflush(output)
        terminal = FileDescriptor(rawValue: fileno(output))
        keyboard = FileDescriptor(rawValue: fileno(input))
        let clustering = enableModes && DisplayWidth.policy.setsClusteringMode
        modesOn = enableModes ? TerminalDevice.enableModes + (clustering ? TerminalDevice.enableClustering : "") : ""
        modesOff = TerminalDevice.disableModes + (clustering ? TerminalDevice.disableClustering : "")
        set_term(screen)
        // ncurses sees a file, so it neither sets the terminal's modes nor reads its size.
        shellSettings = TerminalDevice.enterProgramMode(of: keyboard)
        write(Array(beforeScreen.utf8))
        if let size = TerminalDevice.size(of: terminal) { resize(columns: size.columns, rows: size.rows) }
        raw()
        nonl()  // so Enter (\r) and Ctrl-J (\n) stay apart
        noecho()
        _ = ctui_set_escdelay(25)
        leaveok(ctui_stdscr(), false)
        scrollok(ctui_stdscr(), false)
        idlok(ctui_stdscr(), true)
        _ = ctui_no_typeahead()
        if usesColor, has_colors() {
            start_color()
            use_default_colors()
            hasColors = true
        }
        wnoutrefresh(ctui_stdscr())
        doupdate()
        let keepsRegion = Self.hasCapabilities(["csr": "\u{1B}[%i%p1%d;%p2%dr", "sc": "\u{1B}7", "rc": "\u{1B}8"])
            && ctui_flag_capability("xenl") != 0
        rewriter = FrameOutputRewriter(keepsRegion: keepsRegion,
                                       scrollsWithoutCursor: keepsRegion && Self.hasCapabilities(["rin": "\u{1B}[%p1%dT", "indn": "\u{1B}[%p1%dS"]))
        restoresCaret = Self.hasCapabilities(["sc": "\u{1B}7", "rc": "\u{1B}8"])
        send(modesOn)
    }

    /// Whether the terminal's description has each capability spelt as given.
    private static func hasCapabilities(_ expected: [String: String]) -> Bool {
        expected.allSatisfy { name, value in ctui_string_capability(name).map { String(cString: $0) } == value }
    }

    /// The screen's size, within the client's largest (`TerminalDevice.clamped`).
    public var size: (columns: Int, rows: Int) { TerminalDevice.clamped(columns: Int(ctui_cols()), rows: Int(ctui_lines())) }

    /// The colours the terminal has (0 without colour).
    public var colorCount: Int { hasColors ? Int(ctui_colors()) : 0 }

    /// Tells ncurses the terminal's new size, clamped as `TerminalDevice.clamped` says (ncurses
    /// keeps sizes in a `short`: a larger one would crash it).
    public func resize(columns: Int, rows: Int) {
        let size = TerminalDevice.clamped(columns: columns, rows: rows)
        resizeterm(Int32(size.rows), Int32(size.columns))
    }

    public func present(_ frame: Frame, full: Bool) {
        let window = ctui_stdscr()
        var before = ""
        if frame.reportsPointerMotion != reportsPointerMotion {
            reportsPointerMotion = frame.reportsPointerMotion
            before = reportsPointerMotion ? TerminalDevice.enablePointerMotion : TerminalDevice.disablePointerMotion
        }
        if full { clearok(window, true) }
        var previous = full ? nil : lastFrame
        // ncurses' line hashes of the last frame, of what it takes the terminal to show before
        // this frame's update, and of what this frame's rows were before its changes.
        let lastHashes = full ? [] : self.lastHashes
        var shownHashes = lastHashes, previousHashes = lastHashes
        var prefix = stage.take()
        if let old = previous, let scroll = frame.scroll, scroll.shift != 0, abs(scroll.shift) < scroll.rows.count,
           scroll.rows.lowerBound >= 0, scroll.rows.upperBound <= old.rows {
            // Move ncurses' picture of the region as the terminal will, so only what is new is
            // written; ncurses then scrolls the region, or the client does (`scrollTerminal`).
            wsetscrreg(window, Int32(scroll.rows.lowerBound), Int32(scroll.rows.upperBound - 1))
            scrollok(window, true)
            wscrl(window, Int32(scroll.shift))
            scrollok(window, false)
            wsetscrreg(window, 0, ctui_lines() - 1)
            previous = old.shiftingRows(scroll.rows, up: scroll.shift)
            previousHashes = Self.shiftingHashes(lastHashes, scroll, columns: old.columns)
            if rewriter.scrollsWithoutCursor {
                prefix += scrollTerminal(scroll)
                shownHashes = previousHashes
            }
        }
        let changes = frame.buffer.changes(from: previous)
        var wide = [wchar_t](repeating: 0, count: 8)
        let drawsSomeWhole = DisplayWidth.policy.drawsSomeWhole
        // Runs mostly share one style: its attributes and colour pair are looked up once.
        var lastStyle = CellStyle.plain
        var lastLook = (attributes: attributes(.plain), pair: pair(.plain))
        for change in changes {
            var x = change.column
            for cell in change.cells {
                defer { x += 1 }
                if cell.isContinuation { continue }
                var n = 0
                if drawsSomeWhole, Self.ncursesMismeasures(cell) {
                    // Drawn whole by the terminal, but not a cell ncurses can measure: it holds
                    // a blank of the same width, and the real bytes follow its update.
                    wide[0] = wchar_t(Self.placeholder); n = 1
                } else {
                    cell.forEachScalar { scalar in
                        guard n < 6 else { return }
                        wide[n] = wchar_t(bitPattern: scalar.value); n += 1
                    }
                }
                wide[n] = 0
                // The bottom-right cell reports ERR (the cursor cannot advance), yet is drawn.
                if cell.style != lastStyle {
                    lastStyle = cell.style
                    lastLook = (attributes(cell.style), pair(cell.style))
                }
                _ = ctui_put_cell(window, Int32(change.row), Int32(x), wide, lastLook.attributes, lastLook.pair)
            }
        }
        // The margins the last scroll left stay set unless ncurses might scroll a block that
        // takes them to be the whole screen (or the screen is redrawn whole).
        let hashes = rewriter.keepsRegion ? Self.ncursesHashes(of: frame.buffer, from: previousHashes, changes: changes) : []
        if rewriter.keptRegion != nil, full || Self.lastRowMayScroll(old: shownHashes, new: hashes) {
            prefix += rewriter.releaseRegion(rows: frame.buffer.rows)
            savedCaret = nil
        }
        if full { savedCaret = nil }
        // A caret parked where it was goes back with DECRC (2 bytes, after DECSC once) rather
        // than a move (7): the feed's steps write elsewhere and leave it where it is.
        let caret = frame.cursor
        let restoring = restoresCaret && !full && caret != nil && caret == caretLeft
            && changes.contains { !frame.composerRows.contains($0.row) }
        if restoring, savedCaret != caret {
            prefix += [0x1B, 0x37]
            savedCaret = caret
        }
        // A hidden cursor may rest anywhere (leaveok), so ncurses spends no bytes moving it.
        leaveok(window, caret == nil || restoring)
        if let caret {
            wmove(window, Int32(caret.row), Int32(caret.column))
        }
        let visible = frame.cursor != nil
        if visible != cursorVisible {
            curs_set(visible ? 1 : 0)
            cursorVisible = visible
        }
        wnoutrefresh(window)
        let synchronized = synchronizesOutput && changes.contains { !frame.composerRows.contains($0.row) }
        if synchronized { before += TerminalDevice.beginSynchronizedUpdate }
        var bytes = Array(before.utf8) + prefix
        doupdate()
        if frame.ringsBell { beep() }
        var drawn = stage.take()
        if !full {
            let rewritten = rewriter.rewrite(drawn, rows: frame.buffer.rows)
            drawn = FrameOutputRewriter.tidyStyles(rewritten.bytes)
            if rewritten.savesCursor { savedCaret = nil }
        }
        bytes += drawn
        let wholeRows = full || previous == nil ? Set(0..<frame.buffer.rows) : Set(changes.map(\.row))
        bytes += wholeClusters(of: frame.buffer, rows: wholeRows, returningCursor: !restoring).utf8
        if restoring, let caret {
            // DECRC, unless ncurses used the saved cursor itself this frame; then a move.
            if savedCaret == caret {
                // DECRC also brings back the normal attributes saved with the cursor.
                if let reset = ["\u{1B}[m", "\u{1B}[0m"].map({ Array($0.utf8) }).first(where: { bytes.ends(with: $0) }) {
                    bytes.removeLast(reset.count)
                }
                bytes += [0x1B, 0x38]
            } else {
                bytes += Array("\u{1B}[\(caret.row + 1);\(caret.column + 1)H".utf8)
            }
            // ncurses still takes the cursor to be where it last wrote: an update with nothing
            // to draw but its move to the caret puts that right, and the move is never sent.
            leaveok(window, false)
            wmove(window, Int32(caret.row), Int32(caret.column))
            wnoutrefresh(window)
            doupdate()
            _ = stage.take()
        }
        if synchronized { bytes += TerminalDevice.endSynchronizedUpdate.utf8 }
        // After the frame and its synchronized update: the escape moves no cursor and draws
        // nothing, so ncurses' picture of the screen stays right.
        bytes += frame.notification
        write(bytes)
        lastFrame = frame.buffer
        self.lastHashes = hashes
        caretLeft = caret
    }

    /// ncurses' hash of each row of the last frame (`ncursesHashes`), while margins may be kept.
    private var lastHashes: [UInt] = []
    /// Shortens ncurses' output; holds the scroll margins the terminal has.
    var rewriter = FrameOutputRewriter(keepsRegion: false, scrollsWithoutCursor: false)
    /// Whether the terminal has DECSC/DECRC, with which a parked caret goes back.
    private var restoresCaret = false
    /// Where the terminal's cursor was left by the last frame (nil: hidden, anywhere).
    var caretLeft: CursorPosition?
    /// Where the terminal's DECSC slot holds the cursor, when the client knows.
    var savedCaret: CursorPosition?

    private var lastFrame: CellBuffer?

    /// What ncurses holds in place of a cluster it would measure wrongly: an ideographic space,
    /// two columns wide to the C library as the cluster is to the terminal.
    static let placeholder: UInt32 = 0x3000

    /// Whether any-motion tracking is on (it goes off with the other modes on suspend).
    private var reportsPointerMotion = false
    /// Whether frames are wrapped in synchronized updates: only once the terminal said it has them.
    public private(set) var synchronizesOutput = false

    /// Asks whether the terminal has synchronized output (DECRQM for mode 2026).
    public func queryFeatures() {
        send(TerminalDevice.querySynchronizedOutput)
    }

    /// Turns synchronized output on when the terminal reports mode 2026 as set or reset (known).
    public func modeReported(mode: Int, value: Int) {
        guard mode == TerminalDevice.synchronizedOutputMode else { return }
        synchronizesOutput = value == 1 || value == 2
    }
    private var cursorVisible: Bool?

    /// Sets grapheme clustering mode now and on every return to the screen; unset on leaving.
    public func setClusteringMode() {
        guard !modesOff.contains(TerminalDevice.disableClustering) else { return }
        modesOn += TerminalDevice.enableClustering
        modesOff += TerminalDevice.disableClustering
        if isActive { send(TerminalDevice.enableClustering) }
    }

    /// Leaves the screen for the shell (Ctrl-Z): modes off, terminal modes restored.
    public func suspend() {
        guard isActive else { return }
        reportsPointerMotion = false
        // The shell gets whole-screen margins back, before ncurses moves to the last row.
        let margins = rewriter.releaseRegion(rows: Int(ctui_lines()))
        endwin()
        write(margins + Array(modesOff.utf8) + stage.take())
        if let shellSettings { TerminalDevice.restoreSettings(shellSettings, of: keyboard) }
        isActive = false
    }

    /// Comes back after a suspend; the next frame must be presented in full.
    public func resume() {
        guard !isActive else { return }
        shellSettings = TerminalDevice.enterProgramMode(of: keyboard)
        set_term(screen)
        wrefresh(ctui_stdscr())
        send(modesOn)
        lastFrame = nil
        // ncurses set whole-screen margins and entered the alternate screen (which saves the cursor).
        rewriter.forgetRegion()
        lastHashes = []
        savedCaret = nil
        caretLeft = nil
        isActive = true
    }

    /// Restores the terminal for good.
    public func end() {
        suspend()
        delscreen(screen)
        stage.close()
    }

    /// Reads back what ncurses holds for a cell: its text and attributes (for tests).
    func cellText(column: Int, row: Int) -> (text: String, bold: Bool)? {
        var wide = [wchar_t](repeating: 0, count: 8)
        var attrs: attr_t = 0
        var pair: Int16 = 0
        guard ctui_get_cell(ctui_stdscr(), Int32(row), Int32(column), &wide, 8, &attrs, &pair) != ctui_err() else { return nil }
        var text = ""
        for w in wide where w != 0 {
            if let s = Unicode.Scalar(UInt32(bitPattern: w)) { text.unicodeScalars.append(s) }
        }
        return (text, attrs & ctui_attr_bold() != 0)
    }

    /// Sends what ncurses has written since the last frame, then `sequence`, in one write.
    /// Anything but modes and queries (CSI sequences ending in `h`, `l`, `n`, `p`, `c`) may
    /// have moved the cursor or used its saved slot: the next frame does not rely on either.
    public func send(_ sequence: String) {
        let bytes = Array(sequence.utf8)
        let modesAndQueries = OutputPiece.split(bytes).allSatisfy { piece in
            if case .csi(let final) = piece.kind { return Array("hlnpc".utf8).contains(final) }
            return false
        }
        if !modesAndQueries {
            caretLeft = nil
            savedCaret = nil
        }
        write(stage.take() + bytes)
    }

    /// One `write()` to the terminal (more only if the terminal takes part of it).
    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        try? terminal.writeAll(bytes)
    }

    private func attributes(_ style: CellStyle) -> attr_t {
        var a = ctui_attr_normal()
        if style.attributes.contains(.bold) { a |= ctui_attr_bold() }
        if style.attributes.contains(.dim) { a |= ctui_attr_dim() }
        if style.attributes.contains(.italic) { a |= ctui_attr_italic() }
        if style.attributes.contains(.underline) { a |= ctui_attr_underline() }
        if style.attributes.contains(.reverse) { a |= ctui_attr_reverse() }
        return a
    }

    private func pair(_ style: CellStyle) -> Int16 {
        guard hasColors, style.foreground != .default || style.background != .default else { return 0 }
        let key = ColorKey(foreground: style.foreground, background: style.background)
        if let existing = colorPairs[key] { return existing }
        let next = Int16(colorPairs.count + 1)
        guard Int32(next) < ctui_color_pairs() else { return 0 }
        init_pair(next, colorNumber(style.foreground), colorNumber(style.background))
        colorPairs[key] = next
        return next
    }

    private func colorNumber(_ color: TerminalColor) -> Int16 {
        switch color {
        case .default: return -1
        case .palette(let n): return Int32(n) < ctui_colors() ? Int16(n) : -1
        }
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix) }
}

