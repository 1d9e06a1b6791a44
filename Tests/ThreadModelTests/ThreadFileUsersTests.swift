import Foundation
import XCTest
@testable import ThreadModel

/// `post`'s kept users (issue 22, item 8): a post reads what was appended since the last one,
/// not the file, and still decides handles by the file's rule.
final class ThreadFileUsersTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/big.jsonl" }
    private var state: ThreadStateFiles { ThreadStateFiles(threadPath: path, environment: ["XDG_DATA_HOME": directory + "/data"])! }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "thread-users-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A generated thread of `comments` comments by `users` users (u1…).
    private func generate(comments: Int, users: Int, seed: UInt64 = 7, at target: String? = nil) throws -> Int {
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: comments, users: users, seed: seed).write { bytes += $0 }
        try Data(bytes).write(to: URL(fileURLWithPath: target ?? path))
        return bytes.count
    }

    private func comment(by author: String) -> ThreadRecord {
        .comment(Comment(id: ThreadFileWriter.newCommentID(), author: author, created: Date(timeIntervalSince1970: 1_744_884_000), body: "appended"))
    }

    /// Looks a handle up as `post` does, under the lock; returns the user and the bytes read.
    private func lookUp(_ handle: String, keeping: Bool = true) throws -> (user: User?, read: Int, all: [User]) {
        var found: (User?, [User]) = (nil, [])
        let read = try ThreadFileWriter(path: path).append(usersKeptIn: keeping ? state : nil) { users in
            found = (users.user(handle: handle), users.all)
            return []
        }
        return (found.0, read, found.1)
    }

    func testAPostReadsOnlyTheLinesAppendedSinceTheLastOne() throws {
        let size = try generate(comments: 20_000, users: 200)
        let first = try lookUp("nobody")
        XCTAssertEqual(first.read, size, "nothing kept yet: the whole file")
        XCTAssertEqual(first.all.count, 200)
        try ThreadFileWriter(path: path).append((0..<50).map { _ in comment(by: "u3") })
        let second = try lookUp("nobody")
        XCTAssertLessThan(second.read, 64 << 10, "only the 50 comments appended since")
        XCTAssertEqual(second.all.map(\.id), first.all.map(\.id))
        let index = try ThreadIndex.open(path: path)
        for user in index.users.prefix(20) {
            XCTAssertEqual(try lookUp(user.handle.uppercased()).user, user, "found by handle, ignoring case")
        }
        XCTAssertEqual(try lookUp("nobody", keeping: false).read, try FileDescriptor.openForReading(path).size(),
                       "without a state directory every post reads the file")
    }

    func testUsersAppendedByOthersFollowTheFilesRule() throws {
        _ = try generate(comments: 2_000, users: 20)
        let owner = try XCTUnwrap(try lookUp("x").all.first)
        // Another writer: a newcomer, a record claiming the owner's handle with another id
        // (skipped, as every reader skips it), and a renamed user (the old handle is free again).
        let renamed = try XCTUnwrap(try lookUp("x").all.last)
        try ThreadFileWriter(path: path).append([
            .user(User(id: "u-new", handle: "Newcomer", name: "New Comer")), comment(by: "u-new"),
            .user(User(id: "u-thief", handle: owner.handle.uppercased(), name: "Thief")),
            .user(User(id: renamed.id, handle: "renamed", name: renamed.name)),
        ])
        XCTAssertEqual(try lookUp("newcomer").user, User(id: "u-new", handle: "Newcomer", name: "New Comer"))
        XCTAssertEqual(try lookUp(owner.handle).user, owner, "the handle still belongs to its owner")
        XCTAssertNil(try lookUp(renamed.handle).user)
        XCTAssertEqual(try lookUp("RENAMED").user?.id, renamed.id)
        XCTAssertEqual(try lookUp("x").all.sorted { $0.id < $1.id }, try ThreadIndex.open(path: path).users,
                       "the kept users are the index's users")
    }

    func testAReplacedOrRewrittenFileIsReadWhole() throws {
        _ = try generate(comments: 3_000, users: 30)
        _ = try lookUp("x")
        // Replaced under its name (a new inode): another thread, other users.
        let other = directory + "/other.jsonl"
        let size = try generate(comments: 3_000, users: 5, seed: 99, at: other)
        try FileSystem.rename(other, to: path)
        let replaced = try lookUp("x")
        XCTAssertEqual(replaced.read, size)
        XCTAssertEqual(replaced.all, try ThreadIndex.open(path: path).users)
        // Rewritten in place, longer: same inode, other bytes.
        var bytes: [UInt8] = []
        try ThreadGenerator(comments: 4_000, users: 9, seed: 5).write { bytes += $0 }
        let file = try FileDescriptor.openForWriting(path)
        try file.writeAll(bytes)
        file.close()
        let rewritten = try lookUp("x")
        XCTAssertEqual(rewritten.read, bytes.count)
        XCTAssertEqual(rewritten.all, try ThreadIndex.open(path: path).users)
    }

    func testAKeptFileThatDoesNotReadIsReadAgain() throws {
        _ = try generate(comments: 500, users: 10)
        _ = try lookUp("x")
        try Data("comment-tui users 1 garbage\n".utf8).write(to: URL(fileURLWithPath: state.path(for: "users")))
        let again = try lookUp("x")
        XCTAssertEqual(again.all, try ThreadIndex.open(path: path).users)
        XCTAssertLessThan(try lookUp("x").read, 1024, "and kept again")
    }
}
