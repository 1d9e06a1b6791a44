import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// What `comment-tui FILE` opens before the terminal is touched: the source and the user.
final class OpenCommandTests: XCTestCase {
    private func context(_ environment: [String: String]) -> CommandContext {
        CommandContext(environment: environment, now: { Date() }, writeOutput: { _ in }, writeError: { _ in },
                       readInput: { _ in [] }, inputIsTerminal: true)
    }

    func testResolveCarriesTheFollowedSourceAndTheUser() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("team.jsonl").path
        XCTAssertEqual(VerbRun(.new, [path, "--title", "Team", "--as", "ann"]).status, 0)
        let environment = ["USER": "ann", "XDG_DATA_HOME": directory.path]
        let target = try OpenCommand.resolve(file: path, handle: nil, context: context(environment))
        XCTAssertEqual(target.me.handle, "ann")
        let fileSource = target.source as? ThreadFileSource
        XCTAssertEqual(fileSource?.path, path)
        XCTAssertEqual(target.label, "team.jsonl")
        XCTAssertEqual(target.thread.title, "Team")
        XCTAssertNotNil(fileSource?.index)
        XCTAssertNotNil(target.source.updatesReady, "the source follows the file")
        XCTAssertEqual(target.source.draftFile?.path.hasPrefix(directory.path + "/comment-tui/state/"), true)
    }

    func testReducedMotionComesFromTheFlagOrTheEnvironment() throws {
        XCTAssertEqual(try OpenCommand.parse([], context: context([:]), version: "0")?.reduceMotion, false)
        XCTAssertEqual(try OpenCommand.parse(["--reduce-motion"], context: context([:]), version: "0")?.reduceMotion, true)
        XCTAssertEqual(try OpenCommand.parse([], context: context([OpenCommand.reduceMotionVariable: "1"]), version: "0")?.reduceMotion, true)
        XCTAssertEqual(try OpenCommand.parse([], context: context([OpenCommand.reduceMotionVariable: "0"]), version: "0")?.reduceMotion, false)
        XCTAssertTrue(OpenCommand.usage.contains("--reduce-motion"))
    }

    func testNotificationsAreOffByTheFlagOrTheEnvironment() throws {
        XCTAssertEqual(try OpenCommand.parse([], context: context([:]), version: "0")?.notifies, true)
        XCTAssertEqual(try OpenCommand.parse(["--no-notify"], context: context([:]), version: "0")?.notifies, false)
        XCTAssertEqual(try OpenCommand.parse([], context: context([TerminalNotification.variable: "0"]), version: "0")?.notifies, false)
        XCTAssertEqual(try OpenCommand.parse([], context: context([TerminalNotification.variable: "osc9"]), version: "0")?.notifies, true)
        XCTAssertTrue(OpenCommand.usage.contains("--no-notify"))
    }

    func testResolveKeepsItsMessages() throws {
        let directory = try temporaryDirectory(self)
        let missing = directory.appendingPathComponent("none.jsonl").path
        XCTAssertThrowsError(try OpenCommand.resolve(file: missing, handle: "ann", context: context([:]))) { error in
            XCTAssertEqual((error as? CommandFailure)?.message, "cannot open \(missing): open: No such file or directory")
        }
        let notes = directory.appendingPathComponent("notes.txt").path
        try "shopping list\n".write(toFile: notes, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try OpenCommand.resolve(file: notes, handle: "ann", context: context([:]))) { error in
            let message = (error as? CommandFailure)?.message ?? "\(error)"
            XCTAssertTrue(message.hasPrefix("\(notes):1: ") && message.hasSuffix(" (is it a thread file?)"), message)
        }
    }
}
