import Foundation
@testable import ThreadModel
import XCTest

/// Ruby in a real terminal: the reading on the row above its base, centred and dimmed, both
/// for a comment in the file and for one typed and sent from the composer.
final class TmuxRubyTests: XCTestCase {
    private func writeRubyThread(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("ruby.jsonl").path
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        let records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Furigana", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
            .comment(Comment(id: "c1", author: "u1", created: start, body: "今日は{東京|とうきょう}で{日本語|にほんご}を話す")),
        ]
        let encoder = ThreadRecordEncoder()
        try Data(records.flatMap { encoder.encode($0) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testAReadingShowsOnTheRowAboveItsBase() throws {
        let tmux = try TmuxSession(columns: 60, rows: 16)
        let path = try writeRubyThread(in: tmux.home)
        try tmux.run("\(TmuxSession.clientPath) \(path) --as ann; echo EXIT=$?")
        let shown = try tmux.waitFor("the annotated comment") { $0.contains { $0.contains("今日は   東京   で 日本語 を話す") } }
        let base = try XCTUnwrap(shown.firstIndex { $0.contains("今日は   東京   で 日本語 を話す") })
        XCTAssertEqual(shown[base - 1], "         とうきょう  にほんご", shown.joined(separator: "\n"))
        // The reading is dim (SGR 2), the base is not.
        let cells = try tmux.settledStyledCells()
        func isDim(_ cell: String) -> Bool { cell.split(separator: "|").last?.split(separator: ";").contains("2") == true }
        XCTAssertTrue(cells[base - 1][9].hasPrefix("と|") && isDim(cells[base - 1][9]), cells[base - 1].joined())
        XCTAssertTrue(cells[base][9].hasPrefix("東|") && !isDim(cells[base][9]), cells[base].joined())

        // Typed and sent from the composer, it shows the same way.
        try tmux.literal("{字|じ}と{漢字|かんじ}")
        try tmux.keys("Enter")
        let sent = try tmux.waitFor("the sent comment") { $0.contains { $0.hasPrefix("   字と 漢字") } }
        let row = try XCTUnwrap(sent.firstIndex { $0.hasPrefix("   字と 漢字") })
        XCTAssertEqual(sent[row - 1], "   じ  かんじ", sent.joined(separator: "\n"))
        try tmux.keys("C-c")
        try tmux.waitFor("exit") { $0.contains("EXIT=0") }
    }
}
