import Foundation
import ScrollEngine
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The command line: arguments in, exit status out.
public enum Launcher {
    /// The client's version.
    public static let version = "0.1.0"

    /// Set to 1, F12 crashes the client on purpose (the tests check the terminal is restored).
    static let crashTestVariable = "COMMENT_TUI_CRASH_TEST"

    /// Runs the command line and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        let options = Array(arguments.dropFirst())
        let context = CommandContext.process()
        if let name = options.first, let verb = Verb(rawValue: name) {
            return verb.run(Array(options.dropFirst()), context: context)
        }
        let request: OpenCommand.Request
        do {
            guard let parsed = try OpenCommand.parse(options, context: context, version: version) else { return 0 }
            request = parsed
        } catch let failure as CommandFailure {
            context.writeError("comment-tui: \(failure.message)\n")
            return failure.status
        } catch {
            return Supervisor.fail("\(error)")
        }
        if let problem = localeProblem() { return Supervisor.fail(problem) }
        guard FileDescriptor.standardInput.isTerminal, FileDescriptor.standardOutput.isTerminal else {
            return Supervisor.fail("standard input and output must be a terminal (use --help for usage)")
        }
        if ProcessInfo.processInfo.environment[Supervisor.workerVariable] != "1" {
            // The supervisor only watches: the worker opens the file, so a big thread is indexed once.
            return Supervisor.run(arguments: arguments)
        }
        ProcessEnvironment.remove(Supervisor.workerVariable)
        // First of all: from here a killed supervisor takes the worker with it (SIGHUP, which
        // ends it while the terminal is untouched and quits the loop cleanly once it runs).
        guard ParentWatch.arm() else { return Supervisor.fail("the supervisor ended before the client started") }
        // The file and the user are settled before the terminal is touched, so mistakes print
        // plainly (the supervisor replays them once the worker exits).
        let start: ClientStart
        var visibilityLog: FileDescriptor?
        do {
            start = try ClientStart.resolve(request, context: context)
            if let path = request.visibilityLog {
                do {
                    visibilityLog = try FileDescriptor.openForAppend(path)
                } catch {
                    throw CommandFailure("cannot write the visibility log \(VisibleText.escape(path)): \(error)")
                }
            }
        } catch let failure as CommandFailure {
            context.writeError("comment-tui: \(failure.message)\n")
            return failure.status
        } catch {
            return Supervisor.fail("\(error)")
        }
        return runInteractive(start, visibilityLog: visibilityLog, request: request, context: context)
    }

    /// Why the locale cannot show the client, if it cannot.
    static func localeProblem() -> String? {
        UserLocale.adopt()
        let codeset = UserLocale.codeset
        guard codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" else { return nil }
        return """
        the terminal's character set is \(codeset), not UTF-8, so names and comments would show \
        as mojibake. Start it with a UTF-8 locale, e.g.: LANG=C.UTF-8 comment-tui
        """
    }

    static func runInteractive(_ start: ClientStart, visibilityLog: FileDescriptor?, request: OpenCommand.Request,
                               context: CommandContext) -> Int32 {
        let signals: SignalPipe
        let screen: NCursesScreen
        var graphemeProbe: GraphemeProbe?
        do {
            // Handlers first: ncurses leaves alone signals that already have one.
            signals = try SignalPipe(signals: [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT])
            // The known policy, or substitutions and a probe: the screen writes it on the shell's
            // line before taking the screen, and the loop takes its answers as they come.
            (DisplayWidth.policy, graphemeProbe) = TerminalGraphemeProbe.start(environment: ProcessInfo.processInfo.environment)
            screen = try NCursesScreen(
                terminalType: nil, output: try FileDescriptor.standardOutput.stream(mode: "w"),
                input: try FileDescriptor.standardInput.stream(mode: "r"), enableModes: true,
                beforeScreen: graphemeProbe?.query ?? "", usesColor: Theme.usesColor(environment: ProcessInfo.processInfo.environment))
            // A terminal that answers nothing is given up on a while after this, however long
            // the first frame takes.
            graphemeProbe?.sentAt = MonotonicClock.now()
        } catch {
            return Supervisor.fail("\(error)")
        }
        var settings = CommentClient.SessionSettings()
        settings.snapMode = request.snapMode
        settings.reduceMotion = request.reduceMotion
        settings.colorCount = screen.colorCount
        settings.allowsCrashTest = ProcessInfo.processInfo.environment[crashTestVariable] == "1"
        if request.notifies {
            settings.notifications = DesktopNotifications(style: TerminalNotification.style(environment: ProcessInfo.processInfo.environment))
        }
        let environment = ProcessInfo.processInfo.environment
        settings.openLink = { LinkOpener.open($0, environment: environment) }
        let app: CommentClient
        do {
            app = try start.makeClient(columns: screen.size.columns, rows: screen.size.rows, settings: settings,
                                       request: request, context: context)
        } catch {
            screen.end()
            signals.uninstall()
            return Supervisor.fail("\(error)")
        }
        FileDescriptor.standardInput.setNonBlockingAndCloseOnExec()
        let loop = AppLoop(client: app, session: screen, input: .standardInput, signals: signals, graphemeProbe: graphemeProbe)
        let result = Result { try loop.run() }
        // Before the drafts' last save: comments still waiting for a file's lock go back into it.
        for session in app.openSessions { session.keepUnsentInDraft() }
        let unsaved = app.prepareToExit()
        // A dead supervisor restores nothing and replays no log, and the shell has the terminal
        // back: restore it from here, and say on the terminal itself why the client went away.
        let orphaned = ParentWatch.parentIsGone
        if orphaned { ParentWatch.allowTerminalControlFromBackground() }
        FileDescriptor.standardInput.setNonBlocking(false)
        screen.end()
        // The probe's answers that came and were not read are not the shell's to run.
        if loop.awaitsTerminalAnswers { TerminalDevice.discardInput() }
        signals.uninstall()
        let seen = orphaned ? FileDescriptor.standardOutput : FileDescriptor.standardError
        for draft in unsaved {
            // The screen is gone: say it where the user sees it, with the text itself.
            let thread = unsaved.count > 1 ? " of \(draft.thread)" : ""
            let text = "comment-tui: the draft\(thread) could not be saved (\(draft.error)); here it is:\n\(draft.markdown)\n"
            _ = try? seen.writeAll(Array(text.utf8))
        }
        if unsaved.isEmpty, orphaned {
            _ = try? seen.writeAll(Array("comment-tui: quit because its supervisor process ended; the draft is saved\n".utf8))
        }
        for session in app.openSessions {
            // Comments not in the thread yet: how many, and where they wait (never their text).
            if let unsent = session.unsentAtQuit {
                _ = try? seen.writeAll(Array(unsent.split(separator: "\n").map { "comment-tui: \($0)\n" }.joined().utf8))
            }
            if let kept = session.keptEditorFile {
                _ = try? seen.writeAll(Array("comment-tui: what the editor saved is kept in \(kept)\n".utf8))
            }
            do { try session.saveReadMarker() } catch {
                _ = try? FileDescriptor.standardError.writeAll(Array("comment-tui: could not save the read marker of \(session.source.label): \(error)\n".utf8))
            }
            // After the read marker, which a room sends through the source's session.
            session.source.close()
        }
        app.close()
        if let visibilityLog {
            let records = app.openSessions.flatMap { $0.linkVisibility.records(at: Date()) }
            do { try visibilityLog.writeAll(LinkVisibility.jsonLines(records)) } catch {
                _ = try? FileDescriptor.standardError.writeAll(Array("comment-tui: could not write the visibility log: \(error)\n".utf8))
            }
            visibilityLog.close()
        }
        if case .failure(let error) = result { return Supervisor.fail("\(error)") }
        return 0
    }
}
