/// What home (or the Ctrl-K switcher) asks of the coordinator: it never holds the app or a
/// source, so opening, joining and leaving come back as values the coordinator carries out.
enum HomeEffect: Equatable {
    /// Show this thread (Enter, a click; an accepted invite comes as `acceptInvite`).
    case open(ThreadKey)
    /// Join the room this invite is to (Enter or Alt-Y on an invite); the issue opens it then.
    case acceptInvite(ThreadKey)
    /// Refuse the invite, after the reader said yes to the question.
    case declineInvite(ThreadKey)
    /// Leave the room, after the reader said yes to the question.
    case leave(ThreadKey)
    /// A line for the status bar.
    case message(String)
}

/// A step of home's (or the switcher's) selection, or an edit of its filter: what its keys do.
enum HomeCommand: Equatable {
    case up, down, pageUp, pageDown, first, last
    /// Enter: open the selected thread (accept it, when it is an invite).
    case open
    case acceptInvite
    case declineInvite
    case leave
    /// Backspace: the filter's last character goes.
    case deleteFilterCharacter
    /// Ctrl-W: the filter's last word goes.
    case deleteFilterWord
    /// Ctrl-U: the filter goes.
    case clearFilter
    /// Esc: a question is answered no, else the filter goes (the switcher closes).
    case cancel
    /// A character typed into the filter.
    case type
}
