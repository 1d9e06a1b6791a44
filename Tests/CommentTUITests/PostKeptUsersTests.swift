import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// `post` into a big thread with its users kept between posts (issue 22, item 8): it still
/// refuses what the whole file would refuse and records new users as the file's rule says.
final class PostKeptUsersTests: XCTestCase {
    func testPostsIntoABigThreadDecideHandlesAsTheWholeFileWould() throws {
        let directory = try temporaryDirectory(self)
        let path = directory.appendingPathComponent("big.jsonl").path
        let environment = ["XDG_DATA_HOME": directory.appendingPathComponent("data").path]
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: 30_000, users: 300, seed: 3).write { bytes += $0 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let someone = try XCTUnwrap(try ThreadIndex.open(path: path).users.first)
        func post(_ arguments: [String]) -> VerbRun { VerbRun(.post, [path] + arguments, environment: environment) }

        XCTAssertEqual(post(["--as", someone.handle, "--body", "first"]).status, 0)
        // Another writer (another account: no shared state) makes a user between two posts.
        let other = ["XDG_DATA_HOME": directory.appendingPathComponent("other").path]
        XCTAssertEqual(VerbRun(.post, [path, "--as", "zoe", "--name", "Zoë", "--body", "hi"], environment: other).status, 0)

        // Her handle is taken now, whatever the case and the name given: no second zoe.
        let again = post(["--as", "ZOE", "--name", "Another Zoe", "--body", "me too"])
        XCTAssertEqual(again.status, 0, again.error)
        let unknown = post(["--as", "nobody-here", "--body", "x"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.error.contains("has no user 'nobody-here'"), unknown.error)
        // A new user is recorded once, then known to the next post without --name.
        XCTAssertEqual(post(["--as", "newbie", "--name", "New Bie", "--body", "hello"]).status, 0)
        XCTAssertEqual(post(["--as", "newbie", "--body", "hello again"]).status, 0)
        XCTAssertEqual(post(["--as", someone.handle.uppercased(), "--body", "last"]).status, 0)

        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.users.filter { $0.handle.lowercased() == "zoe" }.count, 1)
        XCTAssertEqual(file.thread.users.filter { $0.handle == "newbie" }.map(\.name), ["New Bie"])
        let last = file.thread.comments.suffix(6).map { (file.thread.user(id: $0.author)?.handle ?? "?", $0.body) }
        XCTAssertEqual(last.map(\.0), [someone.handle, "zoe", "zoe", "newbie", "newbie", someone.handle])
        XCTAssertEqual(last.map(\.1), ["first", "hi", "me too", "hello", "hello again", "last"])
    }
}
