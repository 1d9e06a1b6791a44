import Foundation
@testable import ThreadModel

let testThreadStart = Date(timeIntervalSince1970: 1_744_884_000)
/// "Now" for app tests: a month after the test threads, so headers show plain dates.
let testNow = testThreadStart.addingTimeInterval(30 * 86_400)

/// A small thread with a hostile title, two users and numbered comments.
func makeSmallThread(comments: Int = 3) -> CommentThread {
    var thread = CommentThread(id: "t", title: "Hello \u{1B}[2Jworld", author: "u1", created: testThreadStart, body: "",
                               users: [User(id: "u1", handle: "ann", name: "Ann"), User(id: "u2", handle: "bo", name: "Bo 日本")])
    for i in 1...max(1, comments) {
        thread.append(Comment(id: "c\(i)", author: i % 2 == 0 ? "u1" : "u2", created: testThreadStart.addingTimeInterval(Double(i) * 60), body: "comment number \(i)"))
    }
    return thread
}

@testable import ScrollEngine
@testable import CommentTUI

extension CommentApp {
    /// The feed's top row as a row of its content (0: the first row).
    var feedOffset: Int { feedScroll.model.geometry.drawnOffset }
    /// The offset that shows the feed's last row at the bottom.
    var feedBottomOffset: Int { Int(feedScroll.model.offsetBounds.upperBound.rounded(.down)) }

    /// Runs animations and timers to their end (five seconds on), then draws a frame.
    func settle() {
        advance(to: now + 5)
        _ = render()
    }
}

extension HeadlessScreen {
    /// The screen's rows without the feed's scrollbar in the last column, trailing blanks removed.
    var plainLines: [String] {
        lines.map { line in
            var text = line
            if text.count == screen.columns || DisplayWidth.width(of: text) == screen.columns,
               let last = text.last, last == "│" || last == "┃" {
                text.removeLast()
            }
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
