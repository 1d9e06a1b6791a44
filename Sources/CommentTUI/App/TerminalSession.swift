/// A screen that can be left and re-entered: the real terminal, or a headless one.
public protocol TerminalSession: ScreenBackend {
    /// Leaves the screen for the shell (before the process stops).
    func suspend()
    /// Comes back after a suspend.
    func resume()
    /// Adopts a new size after the terminal was resized.
    func resize(columns: Int, rows: Int)
}

extension NCursesScreen: TerminalSession {}

extension HeadlessScreen: TerminalSession {
    public func suspend() {}
    public func resume() {}
}
