/// What the app asks of the loop that runs it.
public enum AppCommand: Equatable, Sendable {
    case quit
    case suspend
    /// Repaint every cell (Ctrl-L, after resume).
    case redrawAll
    /// Run the user's editor on this text (Ctrl-X Ctrl-E), then call `finishExternalEdit`.
    case editExternally(String)
}
