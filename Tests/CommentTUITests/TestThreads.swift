import Foundation
import ThreadModel

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
