import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Ctrl-C ends `login` and every verb at once, in a real terminal, while a scripted homeserver
/// hangs without answering (the shell's prompt is back within two seconds).
final class TmuxHostileHomeserverTests: XCTestCase {
    private var servers: [ScriptedHomeserver] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
    }

    /// A homeserver that answers discovery and hangs on everything else (or on `hangingPath`).
    private func hangingServer(discovery: Bool = true) throws -> ScriptedHomeserver {
        let server = try ScriptedHomeserver { request in
            switch request.path {
            case "/.well-known/matrix/client" where discovery: .json("{\"errcode\":\"M_NOT_FOUND\"}", status: 404)
            case "/_matrix/client/versions" where discovery: .versions
            default: .hang
            }
        }
        servers.append(server)
        return server
    }

    /// Presses Ctrl-C after a realistic pause and expects the prompt back within 2 s.
    private func interruptAndExpectThePrompt(_ terminal: TmuxSession, waitingFor what: String) throws {
        Thread.sleep(forTimeInterval: 1)
        let pressed = Date()
        try terminal.keys("C-c")
        try terminal.waitFor("the prompt after Ctrl-C \(what)", timeout: 2) { $0.last { !$0.isEmpty } == "$" }
        XCTAssertLessThan(Date().timeIntervalSince(pressed), 2.5)
    }

    func testCtrlCEndsLoginWhileTheServerHangsOnThePassword() throws {
        let server = try hangingServer()
        let terminal = try TmuxSession(columns: 100, rows: 12)
        try terminal.run("\(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann")
        try terminal.waitFor("the password prompt") { $0.contains { $0.hasPrefix("Password for ann on") } }
        try terminal.literal("secret")
        try terminal.keys("Enter")
        try Waiting.until("the login request at the server") { server.requests.contains { $0.path == "/_matrix/client/v3/login" } }
        try interruptAndExpectThePrompt(terminal, waitingFor: "during login")
        XCTAssertFalse(FileManager.default.fileExists(atPath: terminal.home.path + "/config/comment-tui/accounts.json"))
    }

    func testCtrlCEndsLoginWhileDiscoveryHangs() throws {
        let server = try hangingServer(discovery: false)
        let terminal = try TmuxSession(columns: 100, rows: 12)
        try terminal.run("printf 'pw\\n' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann --password-stdin")
        try Waiting.until("the discovery request at the server") { server.requests.contains { $0.path == "/.well-known/matrix/client" } }
        try interruptAndExpectThePrompt(terminal, waitingFor: "during discovery")
    }

    func testCtrlCEndsAVerbAndAnOpeningWhileTheServerHangs() throws {
        let server = try hangingServer()
        let terminal = try TmuxSession(columns: 100, rows: 12)
        try terminal.keepSession(of: "@ann:127.0.0.1", on: server.baseURL)

        try terminal.run("\(TmuxSession.clientPath) render 'matrix:!room:127.0.0.1' --plain")
        try Waiting.until("the verb's first request") { server.requests.count == 1 }
        try interruptAndExpectThePrompt(terminal, waitingFor: "during render")

        try terminal.run("clear; \(TmuxSession.clientPath) post 'matrix:!room:127.0.0.1' --body hello")
        try Waiting.until("the verb's first request") { server.requests.count == 2 }
        try interruptAndExpectThePrompt(terminal, waitingFor: "during post")

        // Opening the room interactively: the worker waits on the server before the screen.
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:!room:127.0.0.1'")
        try Waiting.until("the opening's first request") { server.requests.count == 3 }
        try interruptAndExpectThePrompt(terminal, waitingFor: "while opening a room")
        try terminal.assertLineModeBack()
    }
}
