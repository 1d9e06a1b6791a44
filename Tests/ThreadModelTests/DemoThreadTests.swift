import XCTest
@testable import ThreadModel

final class DemoThreadTests: XCTestCase {
    func testDemoHasATitleAndCommentsByKnownUsers() {
        let thread = DemoThread.make()
        XCTAssertFalse(thread.title.isEmpty)
        XCTAssertGreaterThanOrEqual(thread.comments.count, 20)
        for comment in thread.comments {
            XCTAssertNotNil(thread.user(id: comment.author), "unknown author \(comment.author) of \(comment.id)")
        }
        XCTAssertEqual(Set(thread.comments.map(\.id)).count, thread.comments.count, "comment ids are unique")
    }

    func testUsersAreFoundByHandleIgnoringCase() {
        let thread = DemoThread.make()
        XCTAssertEqual(thread.user(handle: "Tatiana")?.id, "u1")
        XCTAssertNil(thread.user(handle: "nobody"))
        XCTAssertEqual(thread.displayName(of: "u3"), "山田 由紀")
        XCTAssertEqual(thread.displayName(of: "ghost"), "ghost")
    }

    /// What the demo's people say about the client is what it does.
    func testTheDemosAnswersAreCurrent() throws {
        let thread = DemoThread.make()
        let question = try XCTUnwrap(thread.comments.firstIndex { $0.body.contains("jump to the first unread comment") })
        let answer = thread.comments[question + 1]
        XCTAssertTrue(answer.body.hasPrefix("@chloe") && answer.body.contains("Alt-U"), answer.body)
        let claim = try XCTUnwrap(thread.comments.first { $0.body.hasPrefix("Edited this comment") })
        XCTAssertNotNil(claim.edited, "it says the edited marker shows: it is edited")
        // Ctrl-U kills to the start of the line, not a 300-line paste.
        XCTAssertFalse(thread.comments.contains { $0.body.contains("deleted it all with Ctrl-U") })
    }

    func testDemoIsTheSameEveryTime() {
        XCTAssertEqual(DemoThread.make().comments, DemoThread.make().comments)
    }
}

final class DemoFileTests: XCTestCase {
    func testDemoExercisesEveryFeature() {
        let thread = DemoThread.make()
        XCTAssertGreaterThanOrEqual(thread.users.count, 30)
        XCTAssertGreaterThanOrEqual(thread.comments.count, 60)
        XCTAssertEqual(thread.title, "Scrolling like a phone, in a terminal")
        XCTAssertTrue(thread.comments.last!.body.contains("Last comment of the demo"))
        XCTAssertGreaterThan(thread.body.split(separator: "\n").count, 5, "a body worth a collapsing header")
        let bodies = thread.comments.map(\.body)
        XCTAssertTrue(bodies.contains { $0.contains("||") }, "spoilers")
        XCTAssertTrue(bodies.contains { $0.contains("```") }, "code blocks")
        XCTAssertTrue(bodies.contains { $0.contains("](https://") }, "links")
        XCTAssertTrue(bodies.contains { CommentMarkup.parse($0, handles: { _ in nil }).runs.contains { $0[CommentAttributes.RubyAttribute.self] != nil } }, "ruby")
        XCTAssertTrue(bodies.contains { $0.count > 300 }, "long comments")
        XCTAssertTrue(bodies.contains { $0.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) } }, "CJK")
        XCTAssertTrue(bodies.contains { $0.unicodeScalars.contains { $0.properties.isEmojiPresentation } }, "emoji")
        XCTAssertTrue(thread.comments.contains { $0.edited != nil }, "edited comments")
        for user in thread.users { XCTAssertTrue(Handle.isValid(user.handle), user.handle) }
        XCTAssertEqual(Set(thread.users.map { $0.handle.lowercased() }).count, thread.users.count, "handles are unique")
        // Every mention names a user of the thread.
        for body in bodies {
            for word in body.split(whereSeparator: { $0 == " " || $0 == "\n" }) where word.hasPrefix("@") {
                let handle = word.dropFirst().prefix { $0.isLetter || $0.isNumber || "_.-".contains($0) }
                let trimmed = handle.hasSuffix(".") ? handle.dropLast() : handle
                XCTAssertNotNil(thread.user(handle: String(trimmed)), "mention \(word) names nobody")
            }
        }
    }

    func testDemoFileLocationFollowsXDG() {
        XCTAssertEqual(DemoThread.filePath(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/a"]), "/x/data/comment-tui/demo.jsonl")
        XCTAssertEqual(DemoThread.filePath(environment: ["HOME": "/home/a"]), "/home/a/.local/share/comment-tui/demo.jsonl")
        XCTAssertEqual(DemoThread.filePath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]), "/home/a/.local/share/comment-tui/demo.jsonl")
        XCTAssertNil(DemoThread.filePath(environment: [:]))
    }

    func testDemoIsInstalledOnceAndReadsBackIdentical() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("comment-tui/demo.jsonl").path
        try DemoThread.install(at: path)
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.comments, DemoThread.make().comments)
        try ThreadFileWriter(path: path).append(.comment(Comment(id: "mine", author: "u1", created: Date(timeIntervalSince1970: 0), body: "kept")))
        try DemoThread.install(at: path)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.last?.body, "kept", "a second run never replaces the file")
    }
}
