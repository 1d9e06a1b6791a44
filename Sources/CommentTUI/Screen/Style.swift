/// A terminal colour: the terminal's default, or an index into its palette (0–255).
public enum TerminalColor: Hashable, Sendable {
    case `default`
    case palette(UInt8)

    public static let black = TerminalColor.palette(0)
    public static let red = TerminalColor.palette(1)
    public static let green = TerminalColor.palette(2)
    public static let yellow = TerminalColor.palette(3)
    public static let blue = TerminalColor.palette(4)
    public static let magenta = TerminalColor.palette(5)
    static let cyan = TerminalColor.palette(6)
    public static let white = TerminalColor.palette(7)
    public static let gray = TerminalColor.palette(8)
}

/// Text attributes a cell can carry.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let italic = TextAttributes(rawValue: 1 << 2)
    public static let underline = TextAttributes(rawValue: 1 << 3)
    public static let reverse = TextAttributes(rawValue: 1 << 4)
}

/// How a cell looks: attributes plus foreground and background colours.
public struct CellStyle: Hashable, Sendable {
    public var attributes: TextAttributes
    public var foreground: TerminalColor
    public var background: TerminalColor

    public init(_ attributes: TextAttributes = [], foreground: TerminalColor = .default, background: TerminalColor = .default) {
        self.attributes = attributes
        self.foreground = foreground
        self.background = background
    }

    /// The style with more attributes.
    public func adding(_ more: TextAttributes) -> CellStyle {
        var style = self
        style.attributes.formUnion(more)
        return style
    }

    /// The terminal's plain style.
    public static let plain = CellStyle()
}
