import Foundation
import XCTest

/// The demo's post in a real terminal: the header shows its start; Alt-E opens it whole, End
/// reaches its last line, Esc gives the feed back.
final class TmuxPostReaderTests: XCTestCase {
    func testAltEOpensThePostAndEndShowsItsLastLine() throws {
        let tmux = try TmuxSession(columns: 60, rows: 16)
        try tmux.startClient()
        try tmux.keys("C-Home")
        // The header's last post row ends in the marker once the jump to the top has ended.
        try tmux.waitFor("the header's post rows") { $0.contains { $0.hasSuffix("… 15 more lines") } }
        try tmux.keys("M-e")
        let page = try tmux.waitFor("the post's page") { $0.last?.hasPrefix(" lines 1–14 of 18 · Esc closes") == true }
        XCTAssertEqual(page[1], " We rebuilt the feed on a real scroll engine: momentum", page.joined(separator: "\n"))
        try tmux.keys("End")
        let end = try tmux.waitFor("the post's last line") { $0.contains(" at once never lose a comment.") }
        XCTAssertTrue(end.last?.hasPrefix(" lines 5–18 of 18") == true, end.joined(separator: "\n"))
        try tmux.keys("Escape")
        try tmux.waitFor("the feed again") { $0.last?.hasPrefix(" @tatiana · demo.jsonl") == true }
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}
