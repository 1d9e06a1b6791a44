/// A screen that can be left and re-entered: the real terminal, or a headless one.
public protocol TerminalSession: ScreenBackend {
    /// Leaves the screen for the shell (before the process stops).
    func suspend()
    /// Comes back after a suspend.
    func resume()
    /// Adopts a new size after the terminal was resized.
    func resize(columns: Int, rows: Int)
    /// Asks the terminal which optional features it has; answers arrive as input events.
    func queryFeatures()
    /// Takes the terminal's answer to a mode query.
    func modeReported(mode: Int, value: Int)
    /// Sets grapheme clustering mode (2027) while the client holds the screen.
    func setClusteringMode()
}

extension NCursesScreen: TerminalSession {}

extension HeadlessScreen: TerminalSession {
    public func suspend() {}
    public func resume() {}
    public func queryFeatures() {}
    public func modeReported(mode: Int, value: Int) {}
    public func setClusteringMode() {}
}
