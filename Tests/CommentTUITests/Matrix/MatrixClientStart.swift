import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI
import CommentTUITestSupport

/// The whole client against the real Synapse, started as `comment-tui [LOCATOR]` starts it
/// (`ClientStart`: the accounts file, one sync per account, home), before any terminal.
extension XCTestCase {
    /// A fresh environment (data, cache, state, configuration) with `user` logged in.
    func loggedInEnvironment(_ user: MatrixTestUser, on server: SynapseServer) throws -> [String: String] {
        var environment = temporaryDataEnvironment()
        let root = try XCTUnwrap(environment["XDG_DATA_HOME"]) + "/.."
        environment["XDG_CONFIG_HOME"] = root + "/config"
        environment["XDG_STATE_HOME"] = root + "/state"
        environment["HOME"] = root + "/home"
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(.init(userID: user.account.userID, homeserver: server.baseURL.absoluteString,
                           accessToken: user.account.accessToken, deviceID: "TESTDEVICE"))
        try accounts.save()
        return environment
    }

    /// The client started in `environment` on `locator` (nil: home), on a headless screen.
    func startedClient(_ locator: String?, environment: [String: String], columns: Int = 80, rows: Int = 24) throws -> Pilot {
        let context = CommandContext(environment: environment, now: Date.init, writeOutput: { _ in }, writeError: { _ in },
                                     readInput: { _ in [] }, inputIsTerminal: true)
        var request = OpenCommand.Request()
        request.file = locator
        let start = try ClientStart.resolve(request, context: context)
        let client = try start.makeClient(columns: columns, rows: rows, settings: CommentClient.SessionSettings(), request: request,
                                          context: context)
        addTeardownBlock { client.close() }
        client.current?.wallTime = Date()
        return Pilot(client: client, screen: HeadlessScreen(columns: columns, rows: rows))
    }

    /// Takes what the client's sources, openings and accounts have, a fifth of a second at a
    /// time, until `done` holds (bounded).
    func pumpClient(_ pilot: Pilot, timeout: Double = 30, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                    until done: () throws -> Bool) rethrows {
        let deadline = Date().addingTimeInterval(timeout)
        while try !done() {
            guard Date() < deadline else { return XCTFail("\(what) did not happen in \(timeout) s: \(pilot.lines)", file: file, line: line) }
            _ = try? Poll.readable(pilot.client.updateDescriptors, timeout: 0.2)
            pilot.client.current?.wallTime = Date()
            pilot.advance(by: 0.2)
            pilot.takeUpdates()
        }
    }
}
