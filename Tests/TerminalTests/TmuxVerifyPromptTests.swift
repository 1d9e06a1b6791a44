import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// `comment-tui verify --recovery-key` in a real terminal against a real Synapse: the key typed
/// at its prompt is not echoed, and the device ends verified.
final class TmuxVerifyPromptTests: RunSynapseTestCase {
    func testTheRecoveryKeyIsTypedWithoutEchoAndVerifiesTheDevice() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann")
        let recovery = try MautrixPeer(homeserver: server.baseURL, userID: ann.userID, password: "pw-ann").setUpRecovery()

        let terminal = try TmuxSession(columns: 120, rows: 20)
        try terminal.run("printf '%s\\n' 'pw-ann' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann-\(suffix) --password-stdin")
        try terminal.waitFor("ann to log in") { $0.contains { $0.contains("logged in as @ann-\(suffix):") } }
        try terminal.run("clear; \(TmuxSession.clientPath) verify --recovery-key; echo EXIT=$?")
        try terminal.waitFor("the prompt") { $0.contains { $0.hasPrefix("Recovery key for @ann-\(suffix):") } }
        Thread.sleep(forTimeInterval: 1)
        let groups = recovery.recoveryKey.split(separator: " ").map(String.init)
        try terminal.literal(groups.prefix(6).joined(separator: " "))
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(try terminal.screen().contains { $0.contains(groups[0]) || $0.contains(groups[1]) }, "the key is not echoed")
        try terminal.literal(" " + groups.dropFirst(6).joined(separator: " "))
        try terminal.keys("Enter")
        let screen = try terminal.waitFor("the device to be verified", timeout: 30) { $0.contains { $0.contains("EXIT=") } }
        XCTAssertTrue(screen.contains { $0.contains("is now verified with your recovery key") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains("EXIT=0"), screen.joined(separator: "\n"))
        XCTAssertFalse(screen.contains { line in groups.contains { line.contains($0) } }, "no group of the key on screen")
        try terminal.assertLineModeBack()
    }
}
