import Glibc
import ThreadModel

/// The controlling terminal's settings and size, outside of ncurses.
public enum TerminalDevice {
    /// The terminal's size in columns and rows, if the descriptor is a terminal, within
    /// `maxColumns` x `maxRows` (`clamped`).
    public static func size(of fd: FileDescriptor = .standardOutput) -> (columns: Int, rows: Int)? {
        var ws = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return clamped(columns: Int(ws.ws_col), rows: Int(ws.ws_row))
    }

    /// The widest terminal the client draws on: `render --width` goes no wider either. A
    /// 7680-pixel screen in a 6-pixel font is 1,280 columns; past 1,000 text is unreadable.
    public static let maxColumns = 1000
    /// The tallest: a 4,320-pixel screen in an 8-pixel font is 540 rows.
    public static let maxRows = 1000

    /// A size as the client uses it: each side from 1 to its maximum.
    ///
    /// Any terminal (or pty) may report up to 65,535 x 65,535; ncurses keeps sizes in a `short`
    /// (65,535 rows crashed it) and the client's cell buffers grow with columns x rows, so a size
    /// is clamped before it sizes anything: at most 1,000 x 1,000 cells (a million; the client
    /// peaked at 181 MB there, against 35 MB at 80 x 24), drawn from the top left of a larger
    /// terminal.
    public static func clamped(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        (min(max(columns, 1), maxColumns), min(max(rows, 1), maxRows))
    }

    /// The terminal's line settings, to restore after a crash.
    public static func saveSettings(of fd: FileDescriptor = .standardInput) -> termios? {
        var t = termios()
        return tcgetattr(fd.rawValue, &t) == 0 ? t : nil
    }

    /// Drops what the terminal sent that nobody read yet (keys, answers to queries).
    public static func discardInput(of fd: FileDescriptor = .standardInput) {
        _ = tcflush(fd.rawValue, TCIFLUSH)
    }

    /// Puts saved line settings back.
    public static func restoreSettings(_ settings: termios, of fd: FileDescriptor = .standardInput) {
        var t = settings
        _ = tcsetattr(fd.rawValue, TCSANOW, &t)
    }

    /// Puts the terminal in the client's mode and returns the settings it had: every byte read
    /// as it comes (no line editing, no signals from keys, no flow control), nothing echoed,
    /// Enter read as `\r` apart from Ctrl-J, and `\n` written as a bare line feed. This is what
    /// ncurses' `raw()`, `noecho()` and `nonl()` set; the client sets it itself because ncurses
    /// writes into a file (`FrameStage`), not the terminal. Nil if `fd` is not a terminal.
    public static func enterProgramMode(of fd: FileDescriptor = .standardInput) -> termios? {
        guard let saved = saveSettings(of: fd) else { return nil }
        var t = saved
        t.c_lflag &= ~tcflag_t(ICANON | ISIG | IEXTEN | ECHO | ECHONL)
        t.c_iflag &= ~tcflag_t(IXON | BRKINT | PARMRK | ICRNL | INLCR | IGNCR | ISTRIP)
        t.c_oflag &= ~tcflag_t(ONLCR)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(fd.rawValue, TCSADRAIN, &t)
        return saved
    }

    /// Runs `body` with the terminal's input unbuffered and unechoed (answers to queries are
    /// read as they come and never shown), then puts the settings back; nil if not a terminal.
    public static func withQuietInput<T>(_ fd: FileDescriptor = .standardInput, _ body: () throws -> T) rethrows -> T? {
        guard let saved = saveSettings(of: fd) else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ICANON)
        _ = tcsetattr(fd.rawValue, TCSANOW, &quiet)
        defer { restoreSettings(saved, of: fd) }
        return try body()
    }

    /// Reads one line from a terminal with echo off (a password); nil at end of input. Echo
    /// comes back however the prompt ends: a line, the end of input, an error, or a signal
    /// that ends the process (`EchoGuard`).
    public static func readLineUnechoed(_ fd: FileDescriptor = .standardInput) throws -> String? {
        guard let saved = saveSettings(of: fd) else { return try readLine(fd) }
        return try EchoGuard.restoring(saved, on: fd.rawValue) { try readLineUnechoed(fd, saved: saved) }
    }

    private static func readLineUnechoed(_ fd: FileDescriptor, saved: termios) throws -> String? {
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        quiet.c_lflag |= tcflag_t(ECHONL)
        _ = tcsetattr(fd.rawValue, TCSAFLUSH, &quiet)
        defer { restoreSettings(saved, of: fd) }
        return try readLine(fd)
    }

    private static func readLine(_ fd: FileDescriptor) throws -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = try fd.read(upTo: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A || byte == 0x0D { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// The escape sequences that turn the client's modes on: button-motion mouse tracking,
    /// SGR mouse reports, bracketed paste, focus reports (1004: `ESC [ I` and `ESC [ O` as the
    /// window gains and loses focus; a notification is raised while it is away).
    public static let enableModes = "\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[?1004h"

    /// Turns those modes off again.
    public static let disableModes = "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1003l\u{1B}[?1002l\u{1B}[?1004l"

    /// Grapheme clustering (DEC mode 2027): a terminal with it set draws each grapheme cluster
    /// whole, as one or two cells.
    public static let graphemeClusteringMode = 2027
    /// Asks whether the terminal has grapheme clustering (DECRQM), the grapheme probe's first
    /// query; the answer is a mode report (set, reset, permanent or unknown).
    public static let queryGraphemeClustering = "\u{1B}[?2027$p"
    /// Sets grapheme clustering, for a terminal that has it but starts without it (answered
    /// "reset"); sent while the client holds the screen.
    public static let enableClustering = "\u{1B}[?2027h"
    /// Resets it again when the client leaves the screen.
    public static let disableClustering = "\u{1B}[?2027l"

    /// Primary device attributes (DA1), which every terminal answers (`CSI ? … c`) after
    /// answering what was asked before it: the grapheme probe's last query, so its answer
    /// says all the probe's answers came.
    public static let queryPrimaryDeviceAttributes = "\u{1B}[c"

    /// Any-motion tracking (1003): pointer moves without a button are reported too (F2 only).
    public static let enablePointerMotion = "\u{1B}[?1003h"
    public static let disablePointerMotion = "\u{1B}[?1003l"

    /// Synchronized output (DEC mode 2026): the terminal shows a frame whole, once it ends.
    public static let synchronizedOutputMode = 2026
    public static let querySynchronizedOutput = "\u{1B}[?2026$p"
    public static let beginSynchronizedUpdate = "\u{1B}[?2026h"
    public static let endSynchronizedUpdate = "\u{1B}[?2026l"

    /// Everything a crashed client may have left on: modes, scroll margins, alternate screen,
    /// hidden cursor, colours.
    public static let emergencyReset = disableModes + "\u{1B}[r\u{1B}[?1049l\u{1B}[?25h\u{1B}[0m\r\n"
}
