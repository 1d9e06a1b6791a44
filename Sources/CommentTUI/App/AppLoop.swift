import Foundation
import ScrollEngine
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// Runs the app: waits in `poll()` on input, signals and the thread source's updates; decodes
/// input; updates the app; presents frames. Blocks with no timeout unless something is scheduled.
public final class AppLoop {
    /// Why the loop ended.
    public enum Exit: Equatable, Sendable { case quit, signal(Int32), endOfInput }

    private let app: CommentClient
    private let session: TerminalSession
    private let input: FileDescriptor
    private let signals: SignalPipe?
    private let now: () -> Double
    private let wallClock: () -> Date
    private let stopProcess: () -> Void
    private let editText: (String) throws -> String
    private var decoder = InputDecoder()
    private var lastInputAt = 0.0
    private var needsFullRedraw = true
    private var lastFrameAt = -Double.infinity
    /// Something changed since the last frame, which waits for its slot (input faster than 60 a second).
    private var framePending = false
    /// The shortest time between frames while something moves (60 a second).
    static let frameInterval = 1.0 / 60

    /// - Parameters:
    ///   - now: the injected monotonic clock, in seconds.
    ///   - stopProcess: stops the process for Ctrl-Z and returns once it continues; by default
    ///     the whole process group stops, as the shell's Ctrl-Z would.
    ///   - editText: runs an editor on the draft's text (Ctrl-X Ctrl-E); by default `$VISUAL`
    ///     or `$EDITOR` on the terminal.
    ///   - graphemeProbe: a probe sent before the screen was taken, whose answers are awaited.
    public convenience init(
        app: CommentApp, session: TerminalSession, input: FileDescriptor, signals: SignalPipe?,
        now: @escaping () -> Double = MonotonicClock.now,
        wallClock: @escaping () -> Date = Date.init,
        stopProcess: (() -> Void)? = nil,
        editText: ((String) throws -> String)? = nil,
        graphemeProbe: GraphemeProbe? = nil
    ) {
        self.init(client: CommentClient(thread: app), session: session, input: input, signals: signals, now: now,
                  wallClock: wallClock, stopProcess: stopProcess, editText: editText, graphemeProbe: graphemeProbe)
    }

    /// A loop over a client with home and many threads.
    public init(
        client app: CommentClient, session: TerminalSession, input: FileDescriptor, signals: SignalPipe?,
        now: @escaping () -> Double = MonotonicClock.now,
        wallClock: @escaping () -> Date = Date.init,
        stopProcess: (() -> Void)? = nil,
        editText: ((String) throws -> String)? = nil,
        graphemeProbe: GraphemeProbe? = nil
    ) {
        self.graphemeProbe = graphemeProbe
        self.app = app
        self.session = session
        self.input = input
        self.signals = signals
        self.now = now
        self.wallClock = wallClock
        self.stopProcess = stopProcess ?? { signals?.stopProcessGroup() }
        // With the loop's signals: a hang-up while the editor runs ends the wait (and the editor).
        self.editText = editText ?? { [signals] in try ExternalEditor(environment: ProcessInfo.processInfo.environment).edit($0, signals: signals) }
    }

    /// Runs until the user quits, a terminating signal arrives or input ends. The first frame
    /// waits for no answer from the terminal.
    public func run() throws -> Exit {
        start()
        while true {
            if let exit = try runOnce() { return exit }
        }
    }

    /// Before the first turn: the probe's answers awaited, the terminal's features asked (their
    /// answers come after the probe's), the first frame drawn.
    func start() {
        if let graphemeProbe {
            decoder.awaitProbeAnswers()
            probeDeadline = (graphemeProbe.sentAt ?? now()) + TerminalGraphemeProbe.answerWindow
        }
        session.queryFeatures()
        present()
    }

    /// One turn: wait in `poll()`, handle what arrived, present a frame. Nil while running.
    public func runOnce() throws -> Exit? {
        var descriptors = [input]
        if let signals { descriptors.append(signals.readEnd) }
        // Readable when a thread's source has updates (a file appended to, a sync on another
        // thread), an opening ended, an account synced: asked each turn, as threads open.
        let updates = app.updateDescriptors
        descriptors += updates
        let ready = try Poll.readable(descriptors, timeout: timeout())
        if let signals, ready.contains(signals.readEnd) {
            for signal in signals.drain() {
                if let exit = handleSignal(signal) { return exit }
            }
        }
        if updates.contains(where: ready.contains) {
            app.wallTime = wallClock()
            app.descriptorsReady(ready, at: ScrollInstant(seconds: now()))
        }
        var events: [InputEvent] = []
        if ready.contains(input) {
            // A readable descriptor that then has nothing (another reader was first) is not the end.
            guard let bytes = try input.readAvailable(upTo: 65536) else { presentInItsSlot(); return nil }
            if bytes.isEmpty {
                if framePending { present() }
                return .endOfInput
            }
            lastInputAt = now()
            events = decoder.feed(bytes)
        } else {
            if graphemeProbe != nil, now() >= probeDeadline {
                // Nothing in time, and nothing unread (answers read late were still taken): the
                // substitutions stay, and CSI … R is a key again.
                graphemeProbe = nil
                decoder.awaitProbeAnswers(false)
            }
            if let quiet = decoder.quietTimeout, now() - lastInputAt >= quiet {
                // A lone Escape, or a paste whose end never came.
                events = decoder.inputWasQuiet(for: now() - lastInputAt)
            }
        }
        for event in events {
            if graphemeProbe?.take(event) == true {
                // A terminal that answers at all answers the rest: it is given the time again.
                probeDeadline = max(probeDeadline, now() + TerminalGraphemeProbe.answerWindow)
                if graphemeProbe?.isComplete == true { adoptProbedGraphemes() }
                continue
            }
            if case .modeReport(let mode, let value) = event { session.modeReported(mode: mode, value: value) }
            app.wallTime = wallClock()
            for command in app.update(event, at: ScrollInstant(seconds: now())) {
                switch command {
                case .quit: return .quit
                case .suspend: suspend()
                case .redrawAll: needsFullRedraw = true
                case .editExternally(let text): if let exit = editExternally(text) { return exit }
                }
            }
        }
        presentInItsSlot()
        return nil
    }

    /// The grapheme probe sent before the screen was taken, until its last answer came or the
    /// terminal was silent past `probeDeadline`.
    private var graphemeProbe: GraphemeProbe?
    private var probeDeadline = Double.infinity

    /// Whether answers to the probe may still come (the loop ended before they all did).
    public var awaitsTerminalAnswers: Bool { graphemeProbe != nil }

    /// Takes the probe's answer: kept for the next start, and where it lets more clusters be
    /// drawn whole, the text is laid out again and the next frame shows them. Answers with a key
    /// among them are neither kept nor taken (the next start asks again).
    private func adoptProbedGraphemes() {
        guard let probe = graphemeProbe else { return }
        graphemeProbe = nil
        guard let policy = probe.policy else { return }
        probe.cache?.save(policy)
        guard policy != DisplayWidth.policy else { return }
        if policy.setsClusteringMode { session.setClusteringMode() }
        DisplayWidth.policy = policy
        app.clusterWidthsChanged()
    }

    /// Presents now if the last frame is a frame interval old (or the screen must be redrawn
    /// whole), else at the next slot: input never draws more than 60 frames a second.
    private func presentInItsSlot() {
        if needsFullRedraw || now() - lastFrameAt >= Self.frameInterval {
            present()
        } else {
            framePending = true
        }
    }

    /// Seconds until the loop must wake without input: a lone Escape's or an unfinished paste's
    /// timeout, the grapheme probe's deadline, else the next whole minute (relative times change
    /// then; the only wake-up at idle).
    /// While the feed moves, the next frame's slot (at most 60 frames a second); when it rests
    /// with a timer pending (a wheel burst's end, the debounced end), that timer.
    func timeout() -> Double? {
        let time = now()
        var wait = RelativeTime.secondsToNextMinute(wallClock())
        if let quiet = decoder.quietTimeout { wait = min(wait, max(0, lastInputAt + quiet - time)) }
        // Woken at the probe's deadline to give it up, if nothing came by then.
        if graphemeProbe != nil { wait = min(wait, max(0, probeDeadline - time)) }
        let frameSlot = lastFrameAt + Self.frameInterval
        if framePending { wait = min(wait, max(0, frameSlot - time)) }
        if let deadline = app.nextDeadline {
            wait = min(wait, max(0, max(deadline.seconds, frameSlot) - time))
        }
        return wait
    }

    private func handleSignal(_ signal: Int32) -> Exit? {
        switch signal {
        case SIGWINCH:
            adoptTerminalSize()
        case SIGTSTP:
            suspend()
        case SIGCONT:
            needsFullRedraw = true
        case SIGTERM, SIGHUP, SIGINT, SIGQUIT:
            return .signal(signal)
        default:
            break
        }
        return nil
    }

    private func suspend() {
        awayFromTheScreen(stopProcess)
    }

    /// Gives the terminal to someone else (the shell on Ctrl-Z, the editor) for `body`, and
    /// takes it back. The draft is saved first: a stopped client may be killed (`kill -9 %1`),
    /// an editor may crash. The terminal's open file is shared, so it goes back blocking, as
    /// others expect it, while they have it.
    private func awayFromTheScreen<T>(_ body: () -> T) -> T {
        app.prepareToExit()
        session.suspend()
        let nonBlocking = input.isNonBlocking
        if nonBlocking { input.setNonBlocking(false) }
        let result = body()
        if nonBlocking { input.setNonBlocking(true) }
        session.resume()
        adoptTerminalSize()
        return result
    }

    /// Leaves the screen to the editor and takes back what it saved.
    private func editExternally(_ text: String) -> Exit? {
        let result = awayFromTheScreen { Result { try editText(text) } }
        // The edited text is taken (and, when the loop ends here, saved) before any signal counts.
        app.finishExternalEdit(result, at: ScrollInstant(seconds: now()))
        // Ctrl-C or Ctrl-Z typed in an editor that left signals on was meant for the editor.
        for signal in signals?.drain() ?? [] where [SIGTERM, SIGHUP, SIGQUIT].contains(signal) {
            return .signal(signal)
        }
        return nil
    }

    /// Takes the terminal's size now (after a resize, or coming back from the shell or the
    /// editor, where it may have changed) and repaints everything at the next frame.
    private func adoptTerminalSize() {
        if let size = TerminalDevice.size() { session.resize(columns: size.columns, rows: size.rows) }
        app.resize(columns: session.size.columns, rows: session.size.rows)
        needsFullRedraw = true
    }

    private func present() {
        let (columns, rows) = session.size
        app.resize(columns: columns, rows: rows)
        app.wallTime = wallClock()
        lastFrameAt = now()
        framePending = false
        app.advance(to: ScrollInstant(seconds: lastFrameAt))
        // Another screen than the last (a switch between threads, home): painted whole.
        let full = needsFullRedraw || app.switchedSinceLastFrame
        let frame = app.render()
        session.present(frame, full: full)
        app.didPresent(frame)
        needsFullRedraw = false
    }
}
