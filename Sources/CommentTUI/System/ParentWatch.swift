import CLinux
import Glibc

/// The process id the worker expects as its parent, once `arm` has read it.
nonisolated(unsafe) private var expectedParent: pid_t?

/// The worker's watch on its supervisor: the kernel signals the worker when the supervisor
/// dies (`PR_SET_PDEATHSIG`), so a supervisor killed outright (SIGKILL, a signal it does not
/// handle) never leaves the client running on the shell's terminal with its modes on.
enum ParentWatch {
    /// Set in the worker's environment by the supervisor: its own process id.
    static let parentVariable = "COMMENT_TUI_SUPERVISOR_PID"

    /// Asks for `signal` when the supervisor named in the environment dies; false when it has
    /// died already (before the request, so no signal would come). Without the variable (a
    /// worker started by hand) there is nothing to watch.
    static func arm(signal: Int32 = SIGHUP) -> Bool {
        guard let text = getenv(parentVariable).map({ String(cString: $0) }), let pid = pid_t(text) else { return true }
        ProcessEnvironment.remove(parentVariable)
        expectedParent = pid
        _ = ctui_set_parent_death_signal(signal)
        // Checked after the request: a parent that died before it has made us another's child.
        return !parentIsGone
    }

    /// Whether the supervisor has died (the worker was given to another parent).
    static var parentIsGone: Bool {
        guard let expectedParent else { return false }
        return getppid() != expectedParent
    }

    /// Lets this process restore the terminal after its supervisor died: the shell has taken
    /// the terminal back by then, and setting its modes from outside the foreground process
    /// group would stop the process (SIGTTOU) or fail.
    static func allowTerminalControlFromBackground() {
        signal(SIGTTOU, SIG_IGN)
        signal(SIGTTIN, SIG_IGN)
    }
}
