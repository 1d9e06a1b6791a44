import Foundation
import XCTest
@testable import ThreadModel

/// A thread file with no thread record (cut to empty, cut inside its first line, or garbage) is
/// never appended to: the append throws `NoThreadRecord` naming the file and leaves it as it was
/// (issue 36). A file whose thread record is on a later line is a thread file still.
final class NoThreadRecordTests: XCTestCase {
    private let header = #"{"type":"thread","id":"t1","title":"Hello","author":"u1","created":"2025-04-17T10:00:00Z","body":"Post"}"#
    private let user = #"{"type":"user","id":"u1","handle":"ann","name":"Ann"}"#
    private let comment = Comment(id: "c1", author: "u1", created: Date(timeIntervalSince1970: 1_744_884_000), body: "hello")

    private func file(_ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("no-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func assertRefused(_ text: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try self.file(text)
        let writer = ThreadFileWriter(path: path)
        let appends: [(String, () throws -> Void)] = [
            ("append", { try writer.append(.comment(self.comment)) }),
            ("madeUnderLock", { try writer.append(madeUnderLock: { _ in [.comment(self.comment)] }) }),
            ("usersKeptIn", { try writer.append(usersKeptIn: nil) { _ in [.comment(self.comment)] } }),
        ]
        for (name, append) in appends {
            XCTAssertThrowsError(try append(), "\(what), \(name)", file: file, line: line) { error in
                XCTAssertEqual((error as? NoThreadRecord)?.path, path, "\(error)", file: file, line: line)
                XCTAssertTrue("\(error)".hasPrefix("\(path) has no thread record"), "\(error)", file: file, line: line)
            }
            XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text, "\(what), \(name): nothing appended", file: file, line: line)
        }
    }

    func testAFileCutToEmptyIsNeverAppendedTo() throws {
        try assertRefused("", "empty")
    }

    func testAFileOfGarbageOrCutInsideItsThreadRecordIsNeverAppendedTo() throws {
        try assertRefused("not a thread\n\u{0}\u{1}garbage\n", "garbage")
        try assertRefused(String(header.prefix(40)), "cut inside the thread record")
        try assertRefused(String(header.prefix(40)) + "\n" + user + "\n", "a torn thread record, then a user")
        try assertRefused(user + "\n", "users only")
    }

    /// Readers skip a line over `ThreadFileLimits.lineBytes`: a thread record that long is none,
    /// also on the first line, so the writer refuses the file as readers would find no thread.
    func testAThreadRecordOverTheLineLimitIsNone() throws {
        let long = #"{"type":"thread","id":"t1","title":"Hello","author":"u1","created":"2025-04-17T10:00:00Z","body":""#
            + String(repeating: "x", count: 9 << 20) + #""}"#
        XCTAssertEqual(ThreadFileReader().read(Array((long + "\n").utf8)).thread.id, "", "readers find no thread")
        try assertRefused(long + "\n", "a 9 MiB thread record first")
        try assertRefused(long + "\n" + user + "\n", "a 9 MiB thread record, then a user")
    }

    /// A thread record on a later line ends the look: what follows it is not read (a post
    /// under the lock costs the record's offset, not the file's length).
    func testTheLookForALaterThreadRecordStopsThere() throws {
        let rest = String(repeating: #"{"type":"user","id":"u2","handle":"bo","name":"Bo"}"# + "\n", count: 40_000)
        let path = try file(user + "\n" + header + "\n" + rest)
        let file = try FileDescriptor.openForReading(path)
        defer { file.close() }
        XCTAssertTrue(try ThreadRecordPresence.check(file))
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 1 << 20)
        XCTAssertLessThanOrEqual(try file.position(), 256 << 10, "read up to the record's chunk, not the \(size) bytes")
    }

    func testAThreadRecordOnALaterLineStillCounts() throws {
        let path = try file(user + "\n" + header + "\n")
        try ThreadFileWriter(path: path).append(.comment(comment))
        let read = try ThreadFile.read(path: path)
        XCTAssertEqual(read.thread.title, "Hello")
        XCTAssertEqual(read.thread.comments, [comment])
    }

    /// The thread record is looked for on its line alone in the usual file: the line is read
    /// in a chunk, the comments after it never (a post stays cheap in a long thread).
    func testAThreadRecordFirstIsFoundInTheFirstLine() throws {
        let path = try file(header + "\n" + String(repeating: "garbage that would be read\n", count: 10))
        let file = try FileDescriptor.openForReading(path)
        defer { file.close() }
        XCTAssertTrue(try ThreadRecordPresence.check(file))
        XCTAssertEqual(try file.position(), 0, "the first line told: the whole-file scan (which leaves the position at the end) never ran")
    }
}
