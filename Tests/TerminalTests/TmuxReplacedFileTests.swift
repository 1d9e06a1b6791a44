import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// The real client while another program replaces or empties its thread file (issue 22, item
/// 11): it shows the file the name means now, says so in the status bar, and posts there.
final class TmuxReplacedFileTests: XCTestCase {
    func testAFileMovedOverTheThreadOrEmptiedIsShownAnew() throws {
        let tmux = try TmuxSession()
        let file = tmux.home.appendingPathComponent("team.jsonl").path
        let other = tmux.home.appendingPathComponent("other.jsonl").path
        let client = TmuxSession.clientPath
        try tmux.run("\(client) new \(file) --title 'Old thread' --as ann --name Ann --body first; echo NEW=$?")
        try tmux.run("\(client) new \(other) --title 'New thread' --as ann --name Ann --body second; echo NEW=$?")
        try tmux.waitFor("both threads") { $0.filter { $0.contains("NEW=0") }.count == 2 }
        try tmux.run("\(client) \(file) --as ann; echo EXIT=$?")
        try tmux.waitFor("the client on the old thread") { $0.contains { $0.contains("@ann · team.jsonl") } && $0[0].contains("Old thread") }

        XCTAssertEqual(rename(other, file), 0)  // mv other.jsonl team.jsonl
        try tmux.waitFor("the new thread, and why", timeout: 3) { screen in
            screen[0].contains("New thread") && screen.last!.contains("team.jsonl was replaced")
        }
        try tmux.literal("posted to the new file")
        try tmux.keys("Enter")
        try tmux.waitFor("our post, confirmed") { $0.contains("   posted to the new file") && $0.last!.contains("posted") }
        XCTAssertEqual(try ThreadFile.read(path: file).thread.title, "New thread")
        XCTAssertEqual(try ThreadFile.read(path: file).thread.comments.map(\.body), ["posted to the new file"])

        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        try handle.truncate(atOffset: 0)  // : > team.jsonl
        try handle.close()
        try tmux.waitFor("the emptied file, and why", timeout: 3) { screen in
            !screen.contains("   posted to the new file") && screen.last!.contains("team.jsonl was cut short")
        }
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}
