import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// Through the real loop in a pty: another writer's reaction, arriving after the reader has been
/// still for a while, flashes in frames. The loop sleeps in `poll()` meanwhile, so the file's
/// change is the first the app hears of the new time; a flash timed from the last frame would be
/// over before it was drawn.
final class ReactionFlashFrameTests: XCTestCase {
    func testAReactionAfterAPauseFlashesInFrames() throws {
        let terminal = try FakeTerminal(answers: true) { _ in 2 }
        let (client, home) = try terminal.startClient(rows: 20, comments: ["the first", "the second", "the newest, to react to"])
        defer { terminal.stop(client, home: home) }
        _ = try Waiting.poll(timeout: 10) { terminal.output.contains("the newest, to react to") }
        try terminal.waitUntilQuiet()
        let file = home + "/thread.jsonl"
        try ThreadFileWriter(path: file).append([.user(User(id: "u2", handle: "bo", name: "Bo"))])
        try terminal.waitUntilQuiet()
        for (attempt, (pause, key)) in [(1.0, "🎉"), (3.0, "👍")].enumerated() {
            // Still for a while, then Bo's reaction lands in the file.
            Thread.sleep(forTimeInterval: pause)
            let before = terminal.chunks.count
            let at = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            try ThreadFileWriter(path: file).append([.reaction(ReactionChange(comment: "c2", author: "u2", created: at, key: key))])
            _ = try Waiting.poll(timeout: 10) { terminal.output.contains(key) }
            try terminal.waitUntilQuiet()
            let frames = PausedKeyFrameTests.frames(in: Array(terminal.chunks.dropFirst(before)))
            print("ReactionFlashFrameTests: reaction \(attempt + 1) after \(pause) s still drew \(frames) frames")
            // The flash fades in `EffectPalette.rampSteps` (6) colours over 0.6 s, and only a frame
            // that changes a cell is written: the row's arrival and about six steps. A flash timed
            // from the last frame would be over at once: one or two writes.
            XCTAssertGreaterThanOrEqual(frames, EffectPalette.rampSteps - 1, "reaction \(attempt + 1) after \(pause) s drew \(frames) frames")
        }
    }
}
