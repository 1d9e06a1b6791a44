import Foundation
import ScrollEngine
import ThreadModel

/// `comment-tui [FILE] [--as HANDLE]`: which thread file the interactive client opens, and as whom.
enum OpenCommand {
    static let usage = """
    Usage: comment-tui [FILE | ROOM] [--as HANDLE | --as @user:server] [--snap projected|debounce]
                      [--visibility-log LOG] [--private-receipts] [--no-cache] [--reduce-motion]
                      [--join-encrypted] [--no-notify]
           comment-tui new | post | generate | import-github | check | render | export | import ...
                                            (see VERB --help)
           comment-tui login | logout | verify | keys ...   (Matrix accounts)
           comment-tui --help | --version

    Opens a thread file, or a room on a Matrix homeserver (matrix:!id:server,
    matrix:#alias:server or a https://matrix.to/#/ link; log in first), or a post in a
    room (matrix:ROOM/$EVENT, or the matrix.to link to its root), in the terminal; an
    EVENT that is no post's root opens its room (or post) with that message selected.
    Without FILE it opens home (every room of each logged-in account, invites, the
    thread files opened before, the demo) when there is an account or such a file, else
    the demo thread ($XDG_DATA_HOME/comment-tui/demo.jsonl, else
    ~/.local/share/comment-tui/demo.jsonl, written on first run) as the demo's own user,
    tatiana. Home is one key away in any thread: Alt-H; Ctrl-K switches threads.
      --as HANDLE     who you are in the thread (default: the user whose handle is $USER);
                      in a room, the logged-in account @user:server (default: the only one)
      --private-receipts
                      in a room, send read receipts as m.read.private
      --no-cache      in a room, neither open from nor write the offline copy
                      ($XDG_CACHE_HOME/comment-tui/matrix/)
      --join-encrypted
                      join an end-to-end encrypted room you are not in (invited, or
                      public); without it, it asks
      --snap projected|debounce
                      how the thread header snaps when scrolling stops half-way:
                      projected (default) picks the end as the gesture ends and moves
                      there in one motion; debounce waits 50 ms of quiet, then animates
      --reduce-motion no text effects (a spoiler's dissolve, an arriving comment's
                      transition, a mention's glow, a jump's or reaction's flash):
                      end states at once; also COMMENT_TUI_REDUCE_MOTION=1
      --no-notify     no desktop notifications (a mention arriving while the terminal is
                      not focused raises one through the terminal: OSC 777, 9 or 99
                      where it is known to show them, else the bell); also
                      COMMENT_TUI_NOTIFY=0 (=osc777|osc9|osc99|bell picks the escape)
      --visibility-log LOG
                      at exit, append a JSON line per link seen whole:
                      {"comment":ID,"url":URL,"first_seen":TIME,"visible_ms":N}
    Verbs (new, post, check, render and export take a ROOM in place of FILE too):
      new FILE --title TEXT --as HANDLE [--name NAME]     create a thread file
      post FILE --as HANDLE [--name NAME] [--body TEXT]   append a comment (stdin without --body)
      generate --comments N --users M [--seed S]          a realistic thread on stdout
      import-github ISSUE.json COMMENTS.json              GitHub REST JSON to a thread file on stdout
      check FILE                                          report every problem, exit 1 if any
      render FILE [--width N] [--plain] [--now TIME]      print the thread as the client lays it out
      inspect [--format html|json] [TEXT]                 what the markup parser makes of TEXT
      export THREAD                                       the thread (file or room) as JSON Lines on stdout
      import FILE ROOM                                    post a thread file's comments into a room, once
      login [--homeserver URL|NAME] --user NAME           log in to a Matrix homeserver
      logout [--as @user:server]                          end a Matrix session
      verify --recovery-key | --passphrase [--as USER]    verify this device with the recovery key
      keys export|import FILE [--force] [--as USER]       room keys to or from an Element key file
      keys setup [--as USER]                              cross-signing and a recovery key for a new account
    Emoji: the client asks the terminal which emoji it draws whole (kept per terminal in
    $XDG_CACHE_HOME/comment-tui/graphemes.json); COMMENT_TUI_GRAPHEMES=substitute|intact|probe
    overrides.
    Colours: NO_COLOR set and not empty draws with attributes only (reverse, bold, dim).
    Keys: F1 in the client, or docs/Manual.md.
    """

    /// The thread to show, opened and followed, and the user who writes.
    struct Target {
        /// The thread file or room, as the app sees every thread.
        var source: ThreadSource
        var me: User
        /// The room's source, when the thread is a room (kept as opened: its settings are set
        /// before the client runs).
        var room: MatrixThreadSource?

        /// The header and users; its comments are empty (they come from the source's store).
        var thread: CommentThread { source.thread }
        /// The status bar's name for the thread: the file name or the room.
        var label: String { source.label }
    }

    /// What the command line asks the client to open.
    struct Request {
        var file: String?
        var handle: String?
        var visibilityLog: String?
        var snapMode: SnapMode = .projected
        var privateReceipts = false
        var usesCache = true
        var reduceMotion = false
        var joinsEncrypted = false
        /// Desktop notifications through the terminal (`--no-notify`, `COMMENT_TUI_NOTIFY=0`: off).
        var notifies = true
    }

    /// `COMMENT_TUI_REDUCE_MOTION=1` does what `--reduce-motion` does.
    static let reduceMotionVariable = "COMMENT_TUI_REDUCE_MOTION"

    /// Parses the arguments; nil when `--help` or `--version` was answered.
    static func parse(_ arguments: [String], context: CommandContext, version: String) throws -> Request? {
        let parsed = try CommandLineArguments(arguments, options: ["--as", "--visibility-log", "--snap"],
                                              flags: ["--version", "--private-receipts", "--no-cache", "--reduce-motion", "--join-encrypted",
                                                      "--no-notify"],
                                              usage: usage)
        if parsed.wantsHelp { try context.print(usage); return nil }
        if parsed.flags.contains("--version") { try context.print("comment-tui \(version)"); return nil }
        guard parsed.positionals.count <= 1 else {
            throw CommandFailure.usage("unexpected argument '\(VisibleText.escape(parsed.positionals[1]))'", usage)
        }
        var request = Request(file: parsed.positionals.first, handle: parsed.value("--as"), visibilityLog: parsed.value("--visibility-log"))
        request.privateReceipts = parsed.flags.contains("--private-receipts")
        request.usesCache = !parsed.flags.contains("--no-cache")
        request.joinsEncrypted = parsed.flags.contains("--join-encrypted")
        request.reduceMotion = parsed.flags.contains("--reduce-motion") || context.environment[reduceMotionVariable] == "1"
        request.notifies = !parsed.flags.contains("--no-notify") && !TerminalNotification.isTurnedOff(environment: context.environment)
        switch parsed.value("--snap") {
        case nil, "projected": request.snapMode = .projected
        case "debounce": request.snapMode = .afterDebounce
        case let other?:
            throw CommandFailure.usage("--snap takes projected or debounce, not '\(VisibleText.escape(other))'", usage)
        }
        return request
    }

    /// Finds (installing the demo when no file is named) and reads the thread, and picks the user.
    static func resolve(file: String?, handle: String?, context: CommandContext, usesCache: Bool = true,
                        joinsEncrypted: Bool = false) throws -> Target {
        if let file, let room = try RoomOpener.address(file) {
            if let handle, !handle.hasPrefix("@") {
                throw CommandFailure("in a room, --as takes a Matrix user id (@user:server), not '\(VisibleText.escape(handle))'")
            }
            let source = try RoomOpener.open(room, as: handle, context: context, follows: true, usesCache: usesCache,
                                             joinsEncrypted: joinsEncrypted)
            return Target(source: source, me: source.reader, room: source)
        }
        let path: String
        var fallbackHandle = context.environment["USER"]
        var fallbackSource = "$USER"
        if let file {
            path = file
        } else {
            guard let demo = DemoThread.filePath(environment: context.environment) else {
                throw CommandFailure("no FILE given, and neither XDG_DATA_HOME nor HOME is set to find the demo thread")
            }
            do {
                try DemoThread.install(at: demo)
            } catch {
                throw CommandFailure("cannot write the demo thread: \(VisibleText.escape("\(error)"))")
            }
            path = demo
            fallbackHandle = "tatiana"
            fallbackSource = "the demo's user"
        }
        let shownPath = VisibleText.escape(path)
        let source: ThreadFileSource
        do {
            source = try ThreadFileSource(path: path, environment: context.environment)
        } catch let error as SystemError {
            throw CommandFailure("cannot open \(VisibleText.escape(error.description))")
        }
        if let problem = source.notAThreadProblem {
            throw CommandFailure("\(shownPath):\(problem.line): \(VisibleText.escape(problem.message)) (is it a thread file?)")
        }
        let thread = source.thread
        let chosen = handle ?? fallbackHandle
        if let chosen, let me = thread.user(handle: chosen) {
            return Target(source: source, me: me)
        }
        let who = handle.map { "'\(VisibleText.escape($0))'" }
            ?? chosen.map { "'\(VisibleText.escape($0))' (\(fallbackSource))" } ?? "for you ($USER is not set)"
        throw CommandFailure("""
            \(shownPath) has no user \(who). Choose who you are with --as HANDLE, one of: \
            \(ParticipantList.describe(thread)); or join the thread first with: \
            comment-tui post \(shownPath) --as HANDLE --name "Your Name" --body "Hello"
            """)
    }
}
