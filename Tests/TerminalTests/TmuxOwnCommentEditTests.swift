import Foundation
import XCTest
@testable import ThreadModel

/// Editing our own comment in a thread file in the real client (issue 32): Alt-Up selects it,
/// Alt-C brings it into the composer, Enter appends the edit record and the feed shows it;
/// Alt-W asks y/n and y appends the delete record.
final class TmuxOwnCommentEditTests: XCTestCase {
    func testAnEditedCommentIsAppendedAndShownEdited() throws {
        let tmux = try TmuxSession()
        let file = try tmux.threadFileWithOurCommentSelected("teh plan")
        try tmux.keys("M-c")
        try tmux.waitFor("the comment in the composer") { $0.contains { $0.contains("› teh plan") } && $0.last!.contains("editing your comment") }
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("C-a", "DC", "DC", "DC")
        try tmux.literal("the")
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("Enter")
        let screen = try tmux.waitFor("the edit in the feed") { $0.contains("▌  the plan") && $0.last!.contains("edited") }
        XCTAssertFalse(screen.contains { $0.contains("teh plan") }, screen.joined(separator: "\n"))
        XCTAssertTrue(screen.contains { $0.contains("Ann") && $0.contains("edited") }, screen.joined(separator: "\n"))
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let last = try XCTUnwrap(lines.last.map(String.init))
        XCTAssertTrue(last.hasPrefix(#"{"type":"edit","comment":""#) && last.hasSuffix(#","body":"the plan"}"#), last)
        XCTAssertEqual(try ThreadFile.read(path: file).thread.comments.map(\.body), ["the plan"])

        // Alt-W asks; n keeps it (and is not typed), y deletes it.
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("M-w")
        try tmux.waitFor("the question") { $0.last!.contains("delete your comment? y/n") }
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("n")
        try tmux.waitFor("kept") { $0.last!.contains("kept your comment") && $0.contains { $0.hasPrefix("›") && !$0.contains("n") } }
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("M-w")
        try tmux.waitFor("the question again") { $0.last!.contains("delete your comment? y/n") }
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("y")
        try tmux.waitFor("the comment deleted") { $0.contains("▌  (deleted)") && $0.last!.contains("deleted") }
        XCTAssertEqual(try ThreadFile.read(path: file).thread.comments.map(\.body), ["(deleted)"])
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}
