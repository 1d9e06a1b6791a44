import Foundation
import XCTest
@testable import ThreadModel

/// Reactions in a thread file in the real client: Alt-K appends our `react` record and the row
/// shows it as ours; another writer's reaction arrives live; F2 names who reacted; `render`
/// prints the row.
final class TmuxFileReactionTests: XCTestCase {
    func testAltKAppendsOurReactionAnotherWritersArrivesLiveAndF2NamesThem() throws {
        let tmux = try TmuxSession()
        let file = try tmux.threadFileWithOurCommentSelected("react here")
        try tmux.react(choosing: "1")
        let reacted = try tmux.waitFor("our reaction under the comment") { $0.contains { $0.contains("👍 1") } }
        let text = try XCTUnwrap(reacted.firstIndex { $0.contains("react here") })
        XCTAssertTrue(reacted[text + 1].contains("👍 1"), reacted.joined(separator: "\n"))
        let last = try XCTUnwrap(String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").last.map(String.init))
        XCTAssertTrue(last.hasPrefix(#"{"type":"react","comment":""#) && last.hasSuffix(#""key":"👍"}"#), last)

        // Bo's client (another writer) reacts: the row takes it live.
        let comment = try XCTUnwrap(ThreadFile.read(path: file).thread.comments.first?.id)
        try ThreadFileWriter(path: file).append([
            .user(User(id: "u-bo", handle: "bo", name: "Bo\u{1B}[2J")),
            .reaction(ReactionChange(comment: comment, author: "u-bo", created: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)), key: "🎉")),
        ])
        try tmux.waitFor("Bo's reaction") { $0[text + 1].contains("👍 1") && $0[text + 1].contains("🎉 1") }

        // F2 on the selected comment: who reacted.
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("F2")
        let page = try tmux.waitFor("the reactors' page") { $0.contains { $0.contains("Ann (you)") } }
        XCTAssertTrue(page.contains { $0.contains("🎉") && $0.contains("Bo") && $0.contains("[2J") }, "the name's escape shown, not obeyed: \(page)")
        XCTAssertTrue(page.contains { $0.contains("Plans") } || page.contains { $0.contains("Reactions") }, page.joined(separator: "\n"))
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("Escape")
        try tmux.waitFor("the feed again") { $0.contains("   react here") || $0.contains("▌  react here") }
        try tmux.keys("C-c")
        try tmux.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }

        try tmux.run("clear; \(TmuxSession.clientPath) render \(file) --plain --width 40; echo RENDER=$?")
        let printed = try tmux.waitFor("render") { $0.contains { $0.contains("RENDER=0") } }
        let row = try XCTUnwrap(printed.firstIndex { $0.hasSuffix("react here") })
        XCTAssertTrue(printed[row + 1].contains("👍 1") && printed[row + 1].contains("🎉 1"), printed.joined(separator: "\n"))
    }
}
