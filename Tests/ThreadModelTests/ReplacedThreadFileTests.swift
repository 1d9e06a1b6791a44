import XCTest
import Foundation
@testable import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// A thread file replaced or rewritten by another program (issue 22, item 11), as the writer and
/// the tail see it: an append never lands in a file that was replaced while it waited for the
/// lock, and a tail tells a file cut or rewritten under it from one that grew.
final class ReplacedThreadFileTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_744_884_000)

    private func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replaced-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func records(_ title: String, _ ids: [String]) -> [ThreadRecord] {
        [.thread(ThreadHeader(id: title, title: title, author: "u1", created: start, body: "")),
         .user(User(id: "u1", handle: "ann", name: "Ann"))]
            + ids.map { .comment(Comment(id: $0, author: "u1", created: start, body: "body of \($0)")) }
    }

    /// How many of this process's descriptors are open on `path`.
    private func descriptorsOpen(on path: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
    }

    func testAnAppendWaitingForTheLockGoesToTheFileThatReplacedIt() throws {
        let dir = try directory()
        let path = dir + "/t.jsonl", other = dir + "/other.jsonl"
        try ThreadFileWriter(path: path).create(records("Old", ["c1"]))
        try ThreadFileWriter(path: other).create(records("New", ["n1"]))
        let holder = open(path, O_RDONLY | O_CLOEXEC)
        XCTAssertEqual(flock(holder, LOCK_EX), 0)
        let done = DispatchSemaphore(value: 0)
        let late = Comment(id: "late", author: "u1", created: start, body: "late")
        DispatchQueue.global().async {
            do { try ThreadFileWriter(path: path).append(.comment(late)) } catch { XCTFail("\(error)") }
            done.signal()
        }
        // The writer has the old file open and waits for its lock; then `mv other.jsonl t.jsonl`.
        let clock = ContinuousClock(), deadline = clock.now + .seconds(5)
        while descriptorsOpen(on: path) < 2, clock.now < deadline { usleep(1000) }
        XCTAssertEqual(descriptorsOpen(on: path), 2, "the writer opened the file")
        XCTAssertEqual(rename(other, path), 0)
        close(holder)
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(try ThreadFile.read(path: path).thread.comments.map(\.id), ["n1", "late"], "in the file the name means now")
    }

    func testATailTellsACutOrRewrittenFileFromOneThatGrew() throws {
        let dir = try directory()
        let path = dir + "/t.jsonl"
        try ThreadFileWriter(path: path).create(records("T", ["c1", "c2"]))
        let (_, follower) = try ThreadFile.readFollowing(path: path)
        let tail = try ThreadFileTail(path: path, follower: follower)
        try ThreadFileWriter(path: path).append(.comment(Comment(id: "c3", author: "u1", created: start, body: "grew")))
        XCTAssertEqual(try tail.readAppended().records.count, 1, "an append is read")

        // `cp bigger.jsonl t.jsonl`: the same file, cut and written past the old end.
        var bytes: [UInt8] = []
        for record in records("Bigger", (1...9).map { "b\($0)" }) { ThreadRecordEncoder().append(record, to: &bytes) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        XCTAssertThrowsError(try tail.readAppended()) { XCTAssertTrue($0 is ThreadFileTail.Cut, "\($0)") }

        let short = try ThreadFileTail(path: path, follower: try ThreadFile.readFollowing(path: path).1)
        let cut = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try cut.truncate(atOffset: 20)
        try cut.close()
        XCTAssertThrowsError(try short.readAppended()) { XCTAssertEqual("\($0)", "the file shrank from \(bytes.count) to 20 bytes") }
    }
}
