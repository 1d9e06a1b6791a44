/// Where a key is read: the contexts are tried from the most specific that is active
/// (a page over the screen, search, the mention list, a Ctrl-X chord) down to the feed and the composer.
/// Home and the switcher read their own; `client` holds the keys of every screen (home, the
/// switcher, the next thread), which the coordinator tries before a thread's.
enum KeyContext: Hashable, CaseIterable {
    case page, search, reactionPicker, mentionList, chord, feed, composer
    case home, switcher, client
    /// The verification panel over any screen (`VerificationPanel`): it names its keys itself.
    case verification
}

/// The keys a binding matches.
enum KeyPattern: Hashable {
    /// One key with exactly these modifiers.
    case press(KeyPress)
    /// Any character key with exactly these modifiers (typing).
    case anyCharacter(KeyModifiers)

    func matches(_ press: KeyPress) -> Bool {
        switch self {
        case .press(let bound): return bound == press
        case .anyCharacter(let modifiers):
            guard case .character = press.key else { return false }
            return press.modifiers == modifiers
        }
    }
}

/// A line of the F1 page and of the manual's key table: keys as people write them, and what they do.
struct KeyHelp: Hashable {
    var keys: String
    var action: String

    init(_ keys: String, _ action: String) {
        self.keys = keys
        self.action = action
    }
}

/// One row of the key map: in a context, these keys do an action; the help line says so.
///
/// Several bindings may share a help line (Ctrl-Up and Shift-Up both scroll a row); a binding
/// without one is an implementation detail of another's line (Ctrl-G cancels a chord as Esc does).
struct KeyBinding {
    var context: KeyContext
    var keys: [KeyPattern]
    var action: KeyAction
    var help: KeyHelp?

    init(_ context: KeyContext, _ keys: [KeyPattern], _ action: KeyAction, _ help: KeyHelp?) {
        self.context = context
        self.keys = keys
        self.action = action
        self.help = help
    }
}

extension KeyPattern {
    static func key(_ key: Key, _ modifiers: KeyModifiers = []) -> KeyPattern { .press(KeyPress(key, modifiers)) }
    static func ctrl(_ c: Character) -> KeyPattern { .press(.ctrl(c)) }
    static func alt(_ c: Character) -> KeyPattern { .press(.alt(c)) }
    static func character(_ c: Character) -> KeyPattern { .press(KeyPress(.character(c))) }
}
