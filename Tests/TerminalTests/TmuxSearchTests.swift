import Foundation
@testable import ThreadModel
import XCTest

/// Ctrl-S in a real terminal (issue 28, item 3): the match stands out in reverse video on a
/// terminal of eight colours and with NO_COLOR alike (which leaves every colour out), out of
/// the collapsed part of a long comment, with a realistic pause between the keys.
final class TmuxSearchTests: XCTestCase {
    private func writeThread(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("search.jsonl").path
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        let long = (1...30).map { $0 == 25 ? "here is the Needle, line \($0)" : "line \($0) of the long one" }.joined(separator: "\n")
        let records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Search", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
            .user(User(id: "u2", handle: "bo", name: "Bo")),
            .comment(Comment(id: "c1", author: "u2", created: start, body: long)),
            .comment(Comment(id: "c2", author: "u1", created: start.addingTimeInterval(60), body: "the newest")),
        ]
        let encoder = ThreadRecordEncoder()
        try Data(records.flatMap { encoder.encode($0) }).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTheMatchIsInReverseVideoWithEightColoursAndWithNone() throws {
        for environment in ["TERM=screen", "TERM=screen NO_COLOR=1"] {
            let tmux = try TmuxSession(columns: 60, rows: 16)
            let path = try writeThread(in: tmux.home)
            try tmux.run("env \(environment) \(TmuxSession.clientPath) \(path) --as ann; echo EXIT=$?")
            try tmux.waitFor("the thread") { $0.contains { $0.contains("the newest") } }
            Thread.sleep(forTimeInterval: 1)
            try tmux.keys("C-s")
            Thread.sleep(forTimeInterval: 1)
            try tmux.literal("needle")
            let shown = try tmux.waitFor("the match, \(environment)") { $0.contains { $0.contains("here is the Needle, line 25") } }
            XCTAssertTrue(shown.last?.contains("match 1 of 1") == true, shown.joined(separator: "\n"))
            let cells = try tmux.settledStyledCells()
            let row = try XCTUnwrap(cells.first { $0.map { String($0.prefix(1)) }.joined().contains("here is the Needle") })
            let text = row.map { String($0.prefix(1)) }.joined()
            let start = try XCTUnwrap(text.range(of: "Needle")).lowerBound
            let column = text.distance(from: text.startIndex, to: start)
            for cell in row[column..<(column + 6)] {
                XCTAssertTrue(cell.split(separator: "|").last?.split(separator: ";").contains("7") == true, "\(environment): \(cell)")
            }
            XCTAssertFalse(row[column + 6].split(separator: "|").last?.split(separator: ";").contains("7") == true, environment)
            // A cell's look after its scalar and `|`: attributes are one digit, a colour more.
            let coloured = cells.joined().filter { cell in
                String(String.UnicodeScalarView(cell.unicodeScalars.dropFirst(2))).split(separator: ";").contains { $0.count > 1 }
            }
            if environment.contains("NO_COLOR") {
                XCTAssertEqual(coloured, [], "no colour with NO_COLOR")
            } else {
                XCTAssertFalse(coloured.isEmpty, "eight colours are used")
            }
            try tmux.keys("C-c")
            try tmux.waitFor("exit") { $0.contains("EXIT=0") }
        }
    }
}
