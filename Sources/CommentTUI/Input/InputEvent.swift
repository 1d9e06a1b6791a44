/// Modifier keys held with a key or mouse event.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let ctrl = KeyModifiers(rawValue: 4)

    /// Decodes xterm's modifier parameter (1 + bits: shift 1, alt 2, ctrl 4, meta 8).
    init(xtermParameter p: Int) {
        let bits = max(0, p - 1)
        var m: KeyModifiers = []
        if bits & 1 != 0 { m.insert(.shift) }
        if bits & 2 != 0 || bits & 8 != 0 { m.insert(.alt) }
        if bits & 4 != 0 { m.insert(.ctrl) }
        self = m
    }
}

/// A key, independent of modifiers.
public enum Key: Hashable, Sendable {
    case character(Character)
    case enter, tab, backTab, backspace, escape
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    case function(Int)
}

/// A key with its modifiers.
public struct KeyPress: Hashable, Sendable, CustomStringConvertible {
    public var key: Key
    var modifiers: KeyModifiers
    public init(_ key: Key, _ modifiers: KeyModifiers = []) { self.key = key; self.modifiers = modifiers }

    /// A control-letter chord, e.g. `.ctrl("c")`.
    public static func ctrl(_ c: Character) -> KeyPress { KeyPress(.character(c), .ctrl) }
    /// An alt chord, e.g. `.alt("u")`.
    static func alt(_ c: Character) -> KeyPress { KeyPress(.character(c), .alt) }

    public var description: String {
        var s = ""
        if modifiers.contains(.ctrl) { s += "Ctrl-" }
        if modifiers.contains(.alt) { s += "Alt-" }
        if modifiers.contains(.shift) { s += "Shift-" }
        switch key {
        case .character(let c): s += String(c)
        case .function(let n): s += "F\(n)"
        default: s += "\(key)"
        }
        return s
    }
}

/// Which mouse button an event is about.
public enum MouseButton: Hashable, Sendable {
    case left, middle, right, none
    case wheelUp, wheelDown, wheelLeft, wheelRight
}

/// What the mouse did.
public enum MouseAction: Hashable, Sendable {
    case press, release, drag, move
}

/// A decoded mouse report; columns and rows count from 0.
public struct MouseEvent: Hashable, Sendable {
    public var button: MouseButton
    public var action: MouseAction
    public var column: Int
    public var row: Int
    var modifiers: KeyModifiers
    public init(_ button: MouseButton, _ action: MouseAction, column: Int, row: Int, modifiers: KeyModifiers = []) {
        self.button = button; self.action = action; self.column = column; self.row = row; self.modifiers = modifiers
    }

    /// Whether this is a wheel notch.
    public var isWheel: Bool { [.wheelUp, .wheelDown, .wheelLeft, .wheelRight].contains(button) }
}

/// One decoded input event.
public enum InputEvent: Hashable, Sendable {
    case key(KeyPress)
    case mouse(MouseEvent)
    /// Bracketed paste, line ends normalised to `\n`.
    case paste(String)
    case focus(Bool)
    /// The terminal's answer to a mode query (DECRPM): 1 set, 2 reset, 3 and 4 permanent, 0 unknown.
    case modeReport(mode: Int, value: Int)
    /// The terminal's answer to a cursor position query (CPR), counted from 1; decoded only while
    /// the decoder awaits the grapheme probe's answers (`InputDecoder.awaitProbeAnswers`).
    case cursorReport(row: Int, column: Int)
    /// The terminal's answer to the primary device attributes query (DA1, `CSI ? … c`): the
    /// grapheme probe asks it last, so every answer to the probe came before it.
    case deviceAttributes
}
