import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// The password prompt of `login` in a real terminal: echo is off while the password is typed
/// and back on however the prompt ends (issue 36): Ctrl-C, SIGTERM, SIGHUP, the end of input.
final class TmuxLoginPromptTests: XCTestCase {
    private var servers: [ScriptedHomeserver] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
    }

    /// A shell at `login`'s password prompt (a scripted homeserver answers discovery).
    private func atThePasswordPrompt() throws -> TmuxSession {
        let server = try ScriptedHomeserver { request in
            switch request.path {
            case "/.well-known/matrix/client": .json("{\"errcode\":\"M_NOT_FOUND\"}", status: 404)
            case "/_matrix/client/versions": .versions
            default: .hang
            }
        }
        servers.append(server)
        let terminal = try TmuxSession(columns: 100, rows: 12)
        // Under `sh` with a handler for SIGINT (which the client gets back as the default):
        // the terminal is read right after login ends, before an interactive shell could
        // put its own settings back.
        try terminal.run(#"sh -c 'trap : INT; "$0" login --homeserver "$1" --user ann; echo LOGIN-EXIT=$?; stty -a > "$HOME/stty-after"; echo STTY-"DONE"' "#
                         + "\(TmuxSession.clientPath) \(server.baseURL.absoluteString)")
        try terminal.waitFor("the password prompt") { $0.contains { $0.hasPrefix("Password for ann on") } }
        // Half a password typed, after a realistic pause: not shown.
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal("sec")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try terminal.screen().contains { $0.contains("sec") }, "the password is not echoed")
        return terminal
    }

    /// Login ended and `stty`, run right after it, found echo and line mode on.
    private func assertEchoIsBack(_ terminal: TmuxSession, after what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try terminal.waitFor("login to end after \(what)", timeout: 15) { $0.contains("STTY-DONE") }
        let after = try String(contentsOf: terminal.home.appendingPathComponent("stty-after"), encoding: .utf8)
        let flags = Set(after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
        XCTAssertTrue(flags.contains("echo"), "echo is back after \(what)", file: file, line: line)
        XCTAssertTrue(flags.contains("icanon"), "line mode is back after \(what)", file: file, line: line)
    }

    func testControlCAtThePasswordPromptGivesEchoBack() throws {
        let terminal = try atThePasswordPrompt()
        try terminal.keys("C-c")
        try assertEchoIsBack(terminal, after: "Ctrl-C")
        XCTAssertTrue(try terminal.screen().contains("LOGIN-EXIT=130"), "login ended by SIGINT, as a program does")
    }

    func testSIGTERMAndSIGHUPAtThePasswordPromptGiveEchoBack() throws {
        for signal in [SIGTERM, SIGHUP] {
            let terminal = try atThePasswordPrompt()
            kill(try terminal.workerPID(), signal)  // the shell → sh → login
            try assertEchoIsBack(terminal, after: SignalName.of(signal))
            XCTAssertTrue(try terminal.screen().contains("LOGIN-EXIT=\(128 + signal)"), "login ended by the signal")
        }
    }

    func testTheEndOfInputAtThePasswordPromptGivesEchoBack() throws {
        let terminal = try atThePasswordPrompt()
        // The half-typed line erased (Ctrl-U), then Ctrl-D: the end of input.
        try terminal.keys("C-u")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("C-d")
        try assertEchoIsBack(terminal, after: "the end of input")
    }
}
