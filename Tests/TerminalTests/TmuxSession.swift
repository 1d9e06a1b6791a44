import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// A tmux server of a test's own (`-L`, `-f /dev/null`, a fresh HOME), with one pane running
/// an interactive bash, driven with send-keys and read with capture-pane.
final class TmuxSession {
    let socket = "ctui-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let home: URL
    private(set) var isRunning = false

    /// The comment-tui binary built beside this test bundle.
    static var clientPath: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("comment-tui").path
    }

    /// Makes F12 a deliberate fatal error in the client (see Launcher.crashTestVariable).
    static let crashTestVariable = "COMMENT_TUI_CRASH_TEST"

    init(columns: Int = 80, rows: Int = 24) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: Self.clientPath) else {
            // The test target depends on the executable, so this means a broken build: fail, never skip.
            throw TmuxTestError("client binary missing at \(Self.clientPath)")
        }
        try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)",
                  "env", "-i", "HOME=\(home.path)", "XDG_DATA_HOME=\(home.path)/data", "XDG_STATE_HOME=\(home.path)/state",
                  "XDG_CONFIG_HOME=\(home.path)/config", "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=tmux-256color",
                  "PS1=$ ", "bash", "--norc", "--noprofile", "-i"])
        isRunning = true
        try waitFor("the shell prompt") { $0.contains { $0.hasPrefix("$") } }
    }

    deinit {
        if isRunning { _ = try? tmux(["kill-server"]) }
        try? FileManager.default.removeItem(at: home)
    }

    /// Runs a tmux command against this server and returns its output.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        // Output goes to a file, not a pipe: the tmux server forks off and would hold a pipe open.
        let outputURL = home.appendingPathComponent("tmux-output")
        let output = try FileDescriptor.openForWriting(outputURL.path)
        defer { output.close() }
        let child = try ChildProcess.spawn(
            path: "/usr/bin/tmux", arguments: ["tmux", "-L", socket, "-f", "/dev/null"] + arguments,
            environment: ["PATH=/usr/bin:/bin", "HOME=\(home.path)", "LANG=C.UTF-8"],
            standardOutput: output, standardError: output)
        var termination: ChildProcess.Termination?
        while termination == nil { termination = try child.wait() }
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        guard termination == .exited(0) else {
            throw TmuxTestError("tmux \(arguments) failed: \(text)")
        }
        return text
    }

    /// Types a line into the shell and presses Enter.
    func run(_ command: String) throws {
        try tmux(["send-keys", "-t", "0", "-l", command])
        try tmux(["send-keys", "-t", "0", "Enter"])
    }

    /// Sends tmux key names (e.g. "PPage", "C-c").
    func keys(_ names: String...) throws { try tmux(["send-keys", "-t", "0"] + names) }

    /// Sends bytes as typed (escape sequences included).
    func literal(_ text: String) throws { try tmux(["send-keys", "-t", "0", "-l", text]) }

    /// The pane's rows, trailing blanks removed; with `styles`, each row carries its SGR
    /// escapes as tmux sees them (`capture-pane -e`), so colours and attributes compare too.
    func screen(withHistory: Bool = false, styles: Bool = false) throws -> [String] {
        // capture-pane ends every row with a newline: drop the empty piece after the last one.
        try tmux(["capture-pane", "-p", "-t", "0"] + (styles ? ["-e"] : []) + (withHistory ? ["-S", "-"] : [])).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            String($0.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// A tmux format evaluated for the pane, e.g. "#{alternate_on}".
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `predicate` holds, failing after `timeout` seconds of real time.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 20, file: StaticString = #filePath, line: UInt = #line, _ predicate: ([String]) -> Bool) throws -> [String] {
        var last: [String] = []
        try Waiting.until(what, timeout: timeout, state: { last.joined(separator: "\n") }, file: file, line: line) {
            last = try screen()
            return predicate(last)
        }
        return last
    }

    /// The styled screen once it has stayed the same for 0.4 s (the client has stopped drawing).
    func settledStyledCells(timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) throws -> [[String]] {
        // Unchanged for 0.4 s: longer than any effect's step (a dissolve takes 0.3 s), so a
        // client held up mid-effect is not taken for one at rest.
        let clock = ContinuousClock()
        var last = try styledCells(), since = clock.now
        try Waiting.until("the screen to stay the same for 0.4 s", timeout: timeout,
                          state: { last.map { $0.joined() }.joined(separator: "\n") }, file: file, line: line) {
            let now = try styledCells()
            if now != last { (last, since) = (now, clock.now) }
            return clock.now - since >= .milliseconds(400)
        }
        return last
    }

    /// Watches the screen for `seconds` of real time, failing if it changes: an idle client draws nothing.
    func assertUnchanged(for seconds: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let first = try screen()
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        var changed: [String]?
        _ = try Waiting.poll(timeout: seconds + 1) {
            let now = try screen()
            if now != first { changed = now }
            return changed != nil || clock.now >= end
        }
        if let changed {
            XCTFail("the screen changed while idle:\n\(changed.joined(separator: "\n"))", file: file, line: line)
        }
    }

    /// Checks from the shell that the terminal is back in line mode (the client restored it).
    func assertLineModeBack(file: StaticString = #filePath, line: UInt = #line) throws {
        try run("stty -a > \"$HOME/stty-after\"; echo STTY-DONE")
        try waitFor("stty") { $0.contains("STTY-DONE") }
        let after = try String(contentsOf: home.appendingPathComponent("stty-after"), encoding: .utf8)
        let flags = Set(after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        XCTAssertTrue(flags.contains("icanon"), "line mode is back", file: file, line: line)
        XCTAssertTrue(flags.contains("echo"), "echo is back", file: file, line: line)
        XCTAssertTrue(flags.contains("icrnl"), "CR→NL is back", file: file, line: line)
    }

    /// Starts the client from the shell, echoing its exit status afterwards.
    func startClient(arguments: String = "") throws {
        try run("\(Self.clientPath) \(arguments); echo EXIT=$?")
        try waitFor("the client's first screen") { $0.contains { $0.contains("Scrolling like a phone") } }
    }

    /// The process id of the client's worker (the child of the supervisor).
    func workerPID() throws -> Int32 {
        let shell = try format("#{pane_pid}")
        let supervisor = try pgrepChildren(of: shell)
        return try XCTUnwrap(Int32(try pgrepChildren(of: supervisor)))
    }

    func supervisorPID() throws -> Int32 {
        try XCTUnwrap(Int32(try pgrepChildren(of: try format("#{pane_pid}"))))
    }

    private func pgrepChildren(of pid: String) throws -> String {
        let children = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
        return try XCTUnwrap(children.split(separator: " ").first.map(String.init), "no child of \(pid)")
    }
}

/// A failure of the tmux harness itself; fails the test that hit it.
struct TmuxTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension TmuxSession {
    /// The pane as rows of (character, SGR state) pairs, read from `capture-pane -e`, so two
    /// screens compare by what each cell shows: the state is what the sequences so far add up
    /// to (`36;2;39` and `39;2` are both dim in the default colour), since tmux words it after
    /// the cells before, across a row's end too. A blank's bold or italic cannot be seen, so
    /// blanks keep only what shows on them (background, reverse); tmux may carry such
    /// invisible attributes across a row's end differently after partial updates.
    func styledCells() throws -> [[String]] {
        var look = CellLook()
        return try screen(styles: true).map { row in
            var cells: [String] = []
            var scalars = Array(row.unicodeScalars)[...]
            while let first = scalars.first {
                if first == "\u{1B}", scalars.dropFirst().first == "[",
                   let end = scalars.firstIndex(where: { $0 == "m" }) {
                    let parameters = String(String.UnicodeScalarView(scalars[(scalars.startIndex + 2)..<end]))
                    look.apply(parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init))
                    scalars = scalars[(end + 1)...]
                    continue
                }
                cells.append("\(first)|\(look.description(onBlank: first == " "))")
                scalars = scalars.dropFirst()
            }
            return cells
        }
    }
}

/// The SGR state a cell is drawn in, whatever sequences led to it.
private struct CellLook {
    /// Attribute numbers set: 1 bold, 2 dim, 3 italic, 4 underline, 5 blink, 7 reverse, 8, 9.
    var attributes: Set<String> = []
    /// The colours' parameters (`31`, `38;5;196`); nil for the default.
    var foreground: String?
    var background: String?

    mutating func apply(_ parameters: [String]) {
        var i = 0
        while i < parameters.count {
            let parameter = parameters[i]
            switch parameter {
            case "", "0": self = CellLook()
            case "22": attributes.subtract(["1", "2"])
            case "23", "24", "25", "27", "28", "29": attributes.remove(String(parameter.dropFirst()))
            case "39": foreground = nil
            case "49": background = nil
            case "38", "48":
                // `38;5;n` or `38;2;r;g;b`
                let length = i + 1 < parameters.count && parameters[i + 1] == "2" ? 4 : 2
                let colour = parameters[i...min(parameters.count - 1, i + length)].joined(separator: ";")
                if parameter == "38" { foreground = colour } else { background = colour }
                i += length
            default:
                if parameter.count == 1 {
                    attributes.insert(parameter)
                } else if parameter.count == 2, parameter.hasPrefix("3") || parameter.hasPrefix("9") {
                    foreground = parameter
                } else if parameter.count == 2 && parameter.hasPrefix("4") || parameter.count == 3 && parameter.hasPrefix("10") {
                    background = parameter
                }
            }
            i += 1
        }
    }

    /// Attributes in order, then the colours; on a blank only what shows there.
    func description(onBlank blank: Bool) -> String {
        let shown = blank ? attributes.filter { $0 == "7" }.sorted() + [background].compactMap { $0 }
            : attributes.sorted() + [foreground, background].compactMap { $0 }
        return shown.joined(separator: ";")
    }
}

extension TmuxSession {
    /// Keeps a session of `userID` on `homeserver` in this terminal's `accounts.json`, as
    /// `login` would, for a scripted homeserver that takes any token.
    func keepSession(of userID: String, on homeserver: URL) throws {
        var accounts = try MatrixAccounts(path: home.path + "/config/comment-tui/accounts.json")
        accounts.add(.init(userID: userID, homeserver: homeserver.absoluteString, accessToken: "tok", deviceID: "D"))
        try accounts.save()
    }
}
