/// The keys of the whole client (home, the switcher, the next thread) as a thread on screen
/// reads them: the coordinator asks here first and carries out what comes back; a key that
/// comes back nil goes to `update` as before.
extension CommentApp {
    /// The client's action for a key pressed while this thread is on screen, or nil when the
    /// thread keeps the key. Ctrl-K is the composer's kill to the line's end (readline) unless
    /// the caret is at the draft's end with nothing selected, where it would kill nothing: only
    /// there does it open the switcher. Nothing is taken in a Ctrl-X chord, under a page or while
    /// Alt-W's question waits (the next key answers it, whatever it is).
    func clientAction(for press: KeyPress) -> KeyAction? {
        guard !composer.isInChord, overlays.page == nil, deleteAsked == nil else { return nil }
        if let action = postAction(for: press) { return action }
        guard let action = KeyMap.actions(for: press, in: [.client]).first else { return nil }
        if action == .openSwitcher {
            let draft = composer.draft
            guard draft.selection.isEmpty, draft.caret == draft.text.endIndex else { return nil }
        }
        return action
    }
}
