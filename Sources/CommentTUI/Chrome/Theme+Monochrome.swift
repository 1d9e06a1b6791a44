/// The theme without colour: `NO_COLOR` (https://no-color.org) or a terminal that has none.
/// Attributes (reverse, bold, underline) stay, so what stood out still does.
extension Theme {
    /// Whether the reader allows colours: not when `NO_COLOR` is set and not empty.
    static func usesColor(environment: [String: String]) -> Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// A style without its colours. What stood out by one of the eight basic backgrounds (the
    /// mention list, "N new", F3's panel) stands out in reverse video instead; the list's
    /// highlighted row is the one not reversed, so it stands out of the list. Backgrounds from
    /// the 256-colour palette are shades (code's dark grey) and go without a trace.
    static func monochrome(_ style: CellStyle) -> CellStyle {
        guard style.foreground != .default || style.background != .default else { return style }
        var plain = CellStyle(style.attributes)
        if case .palette(let index) = style.background, index < 8, style.background != pickerHighlight.background {
            plain.attributes.insert(.reverse)
        }
        return plain
    }
}
