import Foundation
import XCTest
@testable import CommentTUI

/// Frames arrive whole: in a 100-row terminal with PageUp held, whenever the output pauses it
/// has just finished a frame (the cursor back in the composer), never stopped half-way.
final class WholeFrameTests: XCTestCase {
    func testWithPageUpHeldEveryPauseEndsAFrame() throws {
        let terminal = try FakeTerminal(answers: true) { _ in 2 }
        let bodies = (1...400).map { "comment \($0): a line of text long enough to fill most of a row, then some more words" }
        let (client, home) = try terminal.startClient(rows: 100, comments: bodies)
        defer { terminal.stop(client, home: home) }
        _ = try Waiting.poll(timeout: 10) { terminal.output.contains("comment 400:") }
        try terminal.waitUntilQuiet()
        let before = terminal.chunks.count
        // PageUp held: a key every 33 ms, as a keyboard repeats.
        for _ in 0..<40 {
            terminal.type("\u{1B}[5~")
            usleep(33_000)
        }
        try terminal.waitUntilQuiet()
        let (bytes, recorded) = terminal.recording
        let chunks = Array(recorded.dropFirst(before))
        XCTAssertGreaterThan(chunks.count, 10, "frames were drawn")
        // The cursor's return to the composer's caret ends every frame: DECRC where it was
        // saved there, or a move to it (then ncurses puts the terminal back in normal
        // attributes); then the synchronized update's end, where there is one.
        let text = String(decoding: bytes, as: UTF8.self)
        var returns = ["\u{1B}8"]
        if let found = text.range(of: "\u{1B}\\[[0-9]+;[0-9]+H(\u{1B}\\[m)?(\u{1B}\\[\\?2026l)?$", options: .regularExpression) {
            let caret = String(text[found]).replacingOccurrences(of: "\u{1B}[m", with: "").replacingOccurrences(of: "\u{1B}[?2026l", with: "")
            returns += [caret, caret + "\u{1B}[m"]
        }
        let frameEnds = returns + returns.map { $0 + "\u{1B}[?2026l" }
        guard frameEnds.contains(where: text.hasSuffix) else {
            return XCTFail("the output does not end with the cursor put back: \(text.suffix(40).debugDescription)")
        }
        var torn = 0, pauses = 0
        // A pause counts where the terminal had taken everything written so far (a read that
        // got less than it asked for), so a reader thread held up mid-frame is not a torn frame.
        let end: FakeTerminal.Chunk = (time: .infinity, total: bytes.count, drained: true)
        for (chunk, next) in zip(chunks, chunks.dropFirst() + [end]) where next.time - chunk.time > 0.03 && chunk.drained {
            pauses += 1
            let upTo = String(decoding: bytes[..<chunk.total], as: UTF8.self)
            if !frameEnds.contains(where: upTo.hasSuffix) { torn += 1 }
        }
        XCTAssertGreaterThan(pauses, 0)
        XCTAssertEqual(torn, 0, "of \(pauses) pauses in the output, \(torn) fell inside a frame")
    }
}
