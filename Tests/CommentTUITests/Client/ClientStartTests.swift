import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// What the client starts on, decided before the terminal is touched.
final class ClientStartTests: XCTestCase {
    private func context(_ environment: [String: String]) -> CommandContext {
        CommandContext(environment: environment, now: { Date() }, writeOutput: { _ in }, writeError: { _ in },
                       readInput: { _ in [] }, inputIsTerminal: true)
    }

    /// A broken accounts file stops no thread file from opening: home says why instead.
    func testAThreadFileOpensThoughTheAccountsFileDoesNotRead() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("team.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "Team", "--as", "ann"]).status, 0)
        let config = directory.appendingPathComponent("config/comment-tui")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: config.appendingPathComponent("accounts.json"))
        let environment = ["USER": "ann", "XDG_DATA_HOME": directory.path, "XDG_STATE_HOME": directory.path + "/state",
                           "XDG_CONFIG_HOME": directory.path + "/config"]
        var request = OpenCommand.Request()
        request.file = path
        let start = try ClientStart.resolve(request, context: context(environment))
        XCTAssertEqual(start.key, .file(path: path))
        XCTAssertTrue(start.accounts.isEmpty)
        let said = start.mailbox.take().compactMap { if case .message(let text, true) = $0 { text } else { nil } }
        XCTAssertEqual(said.count, 1)
        XCTAssertTrue(said.first?.contains("accounts") == true, "\(said)")
        // With no file named, the same file stops the start, saying why.
        XCTAssertThrowsError(try ClientStart.resolve(OpenCommand.Request(), context: context(environment)))
    }
}
