import Foundation
import XCTest
@testable import CommentTUI

/// `comment-tui keys export` and `keys import` in a real terminal: the passphrase is asked for
/// twice on export and once on import, never echoed nor printed, and the terminal is left in line
/// mode. No homeserver: key files need none.
final class TmuxKeyFilePromptTests: XCTestCase {
    func testThePassphraseIsTypedTwiceWithoutEchoAndOpensTheFileAgain() throws {
        let terminal = try TmuxSession(columns: 120, rows: 20)
        try terminal.keepSession(of: "@ann:test.local", on: URL(string: "http://127.0.0.1:9")!)
        let passphrase = "tmux passphrase 42"
        try terminal.run("clear; \(TmuxSession.clientPath) keys export \"$HOME/keys.txt\"; echo EXIT=$?")
        try terminal.waitFor("the first prompt") { $0.contains { $0.hasPrefix("Passphrase for the key file:") } }
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal(passphrase)
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try terminal.screen().contains { $0.contains("tmux passphrase") }, "the passphrase is not echoed")
        try terminal.keys("Enter")
        try terminal.waitFor("the second prompt") { $0.contains { $0.contains("The same passphrase again:") } }
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal(passphrase)
        try terminal.keys("Enter")
        var screen = try terminal.waitFor("the export", timeout: 30) { $0.contains { $0.contains("EXIT=") } }
        XCTAssertTrue(screen.contains { $0.contains("wrote 0 room keys of @ann:test.local to ") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains("EXIT=0"), screen.joined(separator: "\n"))
        let file = terminal.home.appendingPathComponent("keys.txt").path
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int, 0o600)

        try terminal.run("clear; \(TmuxSession.clientPath) keys import \"$HOME/keys.txt\"; echo EXIT=$?")
        try terminal.waitFor("the import's prompt") { $0.contains { $0.hasPrefix("Passphrase of ") } }
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal(passphrase)
        try terminal.keys("Enter")
        screen = try terminal.waitFor("the import", timeout: 30) { $0.contains { $0.contains("EXIT=") } }
        XCTAssertTrue(screen.contains { $0.contains("imported 0 new room keys for @ann:test.local from ") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains("EXIT=0"), screen.joined(separator: "\n"))
        XCTAssertFalse(screen.contains { $0.contains("tmux passphrase") }, "never shown")
        try terminal.assertLineModeBack()
    }
}
