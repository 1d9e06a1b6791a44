/// Every key of the client in one table (DESIGN section 7): dispatch in every context reads it,
/// the F1 page and the manual's key table (docs/Manual.md) are made from it.
enum KeyMap {
    /// The actions a key has in the active contexts, most specific first: those bound to the
    /// key exactly, then, for a key held with Shift, those bound to it without Shift (terminals
    /// report Shift on some characters and editing keys; selection keys are bound with Shift).
    /// The coordinator tries them in order: an action may decline (Enter on an empty list).
    static func actions(for press: KeyPress, in contexts: [KeyContext]) -> [KeyAction] {
        var found = contexts.compactMap { action(for: press, in: $0) }
        if press.modifiers.contains(.shift) {
            let plain = KeyPress(press.key, press.modifiers.subtracting(.shift))
            found += contexts.compactMap { action(for: plain, in: $0) }
        }
        return found
    }

    private static func action(for press: KeyPress, in context: KeyContext) -> KeyAction? {
        bindings.first { $0.context == context && $0.keys.contains { $0.matches(press) } }?.action
    }

    /// The F1 page's lines, in table order, each once; then what the mouse does.
    static var helpLines: [KeyHelp] {
        var seen = Set<KeyHelp>()
        return (bindings.compactMap(\.help) + mouseHelp).filter { seen.insert($0).inserted }
    }

    /// What the mouse does: positional, so dispatched by hit testing rather than this table.
    static let mouseHelp = [
        KeyHelp("wheel, drag, scrollbar", "scroll with momentum, jump"),
        KeyHelp("click", "reveal spoiler, expand, open link or post"),
        KeyHelp("Shift+drag", "select text with the terminal"),
    ]
}
