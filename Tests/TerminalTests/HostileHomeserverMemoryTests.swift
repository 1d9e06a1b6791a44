import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// The real `comment-tui` against a scripted homeserver sending endless or huge answers: the
/// process stays small (its kernel-measured peak), ends on its own, and says why.
final class HostileHomeserverMemoryTests: XCTestCase {
    private var servers: [ScriptedHomeserver] = []
    private var home = ""

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        try? FileManager.default.removeItem(atPath: home)
    }

    private var environment: [String] {
        ["HOME=\(home)", "XDG_CONFIG_HOME=\(home)/config", "XDG_DATA_HOME=\(home)/data", "XDG_CACHE_HOME=\(home)/cache",
         "PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
    }

    private func serve(_ script: @escaping @Sendable (ScriptedHomeserver.Request) -> ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        let server = try ScriptedHomeserver(script: script)
        servers.append(server)
        return server
    }

    /// A homeserver that answers discovery, then `login` with `answer`.
    private func loginServer(_ answer: ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        try serve { request in
            switch request.path {
            case "/_matrix/client/versions": .versions
            case "/_matrix/client/v3/login": answer
            default: .json("{\"errcode\":\"M_UNRECOGNIZED\"}", status: 404)
            }
        }
    }

    private func login(to server: ScriptedHomeserver) throws -> PeakMemoryRun {
        let passwordFile = home + "/password"
        try "pw\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        // The password on stdin through the shell, as a script would give it.
        return try PeakMemoryRun(path: TmuxSession.clientPath, arguments: ["login", "--homeserver", server.baseURL.absoluteString, "--user", "mallory", "--password-stdin"],
                                 environment: environment, stdinPath: passwordFile)
    }

    func testAHundredMegabyteTokenAtLoginIsRefusedSmall() throws {
        let server = try loginServer(.login(tokenLength: 100 << 20))
        let run = try login(to: server)
        XCTAssertNil(run.killedBecause)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(run.output, "comment-tui login: homeserver \(server.baseURL.absoluteString) sent more than 64 KiB in answer to login; stopped reading it\n")
        // About 31 MiB measured: the client itself, with nothing of the token held.
        XCTAssertLessThan(run.peakMiB, 64, "peak resident set of the login process")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/config/comment-tui/accounts.json"), "nothing stored")
    }

    func testAnEndlessLoginAnswerEndsSmall() throws {
        let server = try loginServer(.endlessChunked)
        let run = try login(to: server)
        XCTAssertNil(run.killedBecause)
        XCTAssertEqual(run.output, "comment-tui login: homeserver \(server.baseURL.absoluteString) sent more than 64 KiB in answer to login; stopped reading it\n")
        XCTAssertLessThan(run.peakMiB, 64)
    }

    func testAnEndlessInitialSyncStopsAtItsLimit() throws {
        let room = "!r:127.0.0.1"
        let server = try serve { request in
            switch request.path {
            case "/_matrix/client/v3/joined_rooms": .json("{\"joined_rooms\":[\"\(room)\"]}")
            case "/_matrix/client/v3/sync": .endlessChunked
            default: .json("{\"errcode\":\"M_NOT_FOUND\"}", status: 404)
            }
        }
        var accounts = try MatrixAccounts(path: home + "/config/comment-tui/accounts.json")
        accounts.add(.init(userID: "@ann:127.0.0.1", homeserver: server.baseURL.absoluteString, accessToken: "tok", deviceID: "D"))
        try accounts.save()
        let run = try PeakMemoryRun(path: TmuxSession.clientPath, arguments: ["render", "matrix:\(room)", "--plain"], environment: environment)
        XCTAssertNil(run.killedBecause)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(run.output, "comment-tui render: \(room): homeserver \(server.baseURL.absoluteString) sent more than 96 MiB in answer to sync; stopped reading it\n")
        // About 159 MiB measured: 96 MiB of answer (its buffer doubling from 64 MiB) and the
        // client; the old client grew until it was killed at 1.5 GB.
        XCTAssertLessThan(run.peakMiB, 300, "peak resident set of the render process")
    }
}
