import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Home's list scrolls in a real terminal through the real loop: a wheel notch after a second's
/// pause moves it and it comes to rest; another after a longer pause moves it again.
final class TmuxHomeScrollTests: XCTestCase {
    func testTheWheelScrollsHomeAfterPausesAndComesToRest() throws {
        let tmux = try TmuxSession(columns: 80, rows: 24)
        let remembered = try XCTUnwrap(RememberedThreads(environment: ["XDG_DATA_HOME": tmux.home.path + "/data"]))
        for n in 1...30 {
            var file: [UInt8] = []
            let encoder = ThreadRecordEncoder()
            encoder.append(.thread(ThreadHeader(id: "t\(n)", title: String(format: "Thread %02d", n), author: "u1",
                                                created: ThreadFixture.start, body: "")), to: &file)
            encoder.append(.user(User(id: "u1", handle: "ann", name: "Ann")), to: &file)
            encoder.append(.comment(Comment(id: "c\(n)", author: "u1", created: ThreadFixture.start.addingTimeInterval(Double(n) * 60),
                                            body: "comment of thread \(n)")), to: &file)
            let path = tmux.home.appendingPathComponent("t\(n).jsonl").path
            try Data(file).write(to: URL(fileURLWithPath: path))
            try remembered.add(path)
        }
        try tmux.run("\(TmuxSession.clientPath); echo EXIT=$?")
        // Newest first: thread 30 on top once the rows have read their files.
        let first = try tmux.waitFor("home with the threads' rows") { $0.contains { $0.contains("Thread 30") } && $0.contains { $0.contains("comment of thread 30") } }
        XCTAssertFalse(first.contains { $0.contains("Thread 01") }, "the oldest is below the screen")
        Thread.sleep(forTimeInterval: 1)
        try tmux.literal(String(repeating: "\u{1B}[<65;10;10M", count: 3))
        try tmux.waitFor("the wheel to scroll home") { !$0.contains { $0.contains("Thread 30") } }
        let rested = try tmux.waitFor("home at rest") { screen in
            Thread.sleep(forTimeInterval: 0.3)
            return (try? tmux.screen()) == screen
        }
        XCTAssertNotEqual(rested, first)
        Thread.sleep(forTimeInterval: 5)
        try tmux.literal(String(repeating: "\u{1B}[<65;10;10M", count: 8))
        try tmux.waitFor("the list's end after a pause") { $0.contains { $0.contains("Thread 01") } }
        try tmux.keys("C-c")
        try tmux.waitFor("the exit") { $0.contains("EXIT=0") }
    }
}
