import Foundation
import XCTest
@testable import CommentTUI

/// Through the real loop in a pty: a key pressed after the reader has been still for a second
/// animates in frames. The loop sleeps in `poll()` meanwhile, so the key is the first the app
/// hears of the new time; a motion timed from the last frame would be over before it was drawn.
final class PausedKeyFrameTests: XCTestCase {
    func testPageUpAfterASecondsPauseDrawsItsFrames() throws {
        let terminal = try FakeTerminal(answers: true) { _ in 2 }
        let bodies = (1...400).map { "comment \($0): a line of text long enough to fill most of a row, then some more words" }
        let (client, home) = try terminal.startClient(rows: 30, comments: bodies)
        defer { terminal.stop(client, home: home) }
        _ = try Waiting.poll(timeout: 10) { terminal.output.contains("comment 400:") }
        try terminal.waitUntilQuiet()
        for attempt in 1...2 {
            Thread.sleep(forTimeInterval: 1)
            let before = terminal.chunks.count
            terminal.type("\u{1B}[5~")
            try terminal.waitUntilQuiet()
            let frames = Self.frames(in: Array(terminal.chunks.dropFirst(before)))
            print("PausedKeyFrameTests: PageUp \(attempt) after a second's pause drew \(frames) frames")
            // 60 frames a second over the page key's 180 ms: about 11; at least 6 on a busy machine.
            XCTAssertGreaterThanOrEqual(frames, 6, "PageUp \(attempt) after a second's pause drew \(frames) frames")
        }
    }

    /// Frames in a run of chunks: each frame is one write, so chunks read within a few
    /// milliseconds of each other belong to one frame.
    static func frames(in chunks: [FakeTerminal.Chunk]) -> Int {
        var frames = 0, last = -Double.infinity
        for chunk in chunks {
            if chunk.time - last > 0.005 { frames += 1 }
            last = chunk.time
        }
        return frames
    }
}
