import Foundation
import Glibc
import XCTest
@testable import ThreadModel

/// What a thread file's readers and writers refuse or bound: files that are not regular files,
/// lines over the limit, a full disk's message, and how private the state files are.
final class ThreadFileSafetyTests: XCTestCase {
    private let header = #"{"type":"thread","id":"t1","title":"Hello","author":"u1","created":"2025-04-17T10:00:00Z","body":"Post"}"#
    private let user = #"{"type":"user","id":"u1","handle":"tatiana","name":"Tatiana B."}"#
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "thread-file-safety-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func comment(_ id: String, body: String = "hi") -> String {
        #"{"type":"comment","id":"\#(id)","author":"u1","created":"2025-04-17T10:05:00Z","body":"\#(body)"}"#
    }

    /// The error `body` throws, run on another thread; fails (instead of hanging the suite) if it
    /// takes over 5 s or throws nothing.
    private func errorWithinFiveSeconds(_ what: String, _ body: @escaping @Sendable () throws -> Void) -> String {
        let done = expectation(description: what)
        nonisolated(unsafe) var thrown: Error?
        Thread.detachNewThread {
            do { try body() } catch { thrown = error }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertNotNil(thrown, "\(what) threw nothing")
        return thrown.map { "\($0)" } ?? ""
    }

    // MARK: Not a regular file (issue 22, item 6)

    func testAFIFOIsRefusedAtOnceByEveryReaderAndTheWriter() throws {
        let path = directory + "/fifo.jsonl"
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        // Before the fix every one of these waited forever for a writer to open the FIFO.
        defer {
            // Releases a reader still blocked in open() (only before the fix), so the thread ends.
            let writer = Glibc.open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        let expected = "\(path): not a regular file but a FIFO (named pipe); a thread file must be a regular file"
        XCTAssertEqual(errorWithinFiveSeconds("ThreadFile.read") { _ = try ThreadFile.read(path: path) }, expected)
        XCTAssertEqual(errorWithinFiveSeconds("ThreadIndex.open") { _ = try ThreadIndex.open(path: path) }, expected)
        XCTAssertEqual(errorWithinFiveSeconds("append") {
            try ThreadFileWriter(path: path).append(.user(User(id: "u2", handle: "x", name: "X")))
        }, expected)
        XCTAssertEqual(errorWithinFiveSeconds("tail") {
            _ = try ThreadFileTail(path: path, follower: ThreadFileFollower(offset: 0, lineCount: 0))
        }, expected)
    }

    func testADirectoryAndADeviceAreRefusedWithTheirKind() throws {
        XCTAssertThrowsError(try ThreadIndex.open(path: directory)) { error in
            XCTAssertEqual("\(error)", "\(directory): not a regular file but a directory; a thread file must be a regular file")
        }
        // /dev/zero never ends: before the fix reading it grew memory until the process aborted.
        XCTAssertThrowsError(try ThreadFile.read(path: "/dev/zero")) { error in
            XCTAssertEqual("\(error)", "/dev/zero: not a regular file but a character device; a thread file must be a regular file")
        }
        XCTAssertThrowsError(try ThreadIndex.open(path: "/dev/zero"))
    }

    // MARK: Lines over the limit (issue 22, items 6 and 7)

    func testALineOverTheLimitIsSkippedAndReportedWithItsLineNumber() throws {
        let long = comment("c2", body: String(repeating: "x", count: (8 << 20)))
        let text = header + "\n" + user + "\n" + comment("c1") + "\n" + long + "\n" + comment("c3") + "\n"
        let path = directory + "/long.jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        let message = "line of \(long.utf8.count) bytes is over the 8 MiB (8388608 bytes) line limit: skipped"

        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems, [ThreadFileProblem(line: 4, message: message)])
        XCTAssertEqual(file.thread.comments.map(\.id), ["c1", "c3"])
        XCTAssertEqual(file.lineCount, 5)

        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(index.problems, [ThreadFileProblem(line: 4, message: message)])
        XCTAssertEqual(index.commentCount, 2)
        XCTAssertEqual(try index.comment(at: 1).get().id, "c3")
        XCTAssertEqual(index.follower.lineCount, 5)

        // A follower given the same bytes in small pieces skips the line the same way.
        var follower = ThreadFileFollower(offset: 0, lineCount: 0)
        var problems: [ThreadFileProblem] = []
        var ids: [String] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: 1 << 20) {
            let update = follower.ingest(Array(bytes[start..<min(bytes.count, start + (1 << 20))]))
            problems += update.problems
            ids += update.records.compactMap { if case .comment(let c) = $0.record { c.id } else { nil } }
        }
        XCTAssertEqual(problems, [ThreadFileProblem(line: 4, message: message)])
        XCTAssertEqual(ids, ["c1", "c3"])
        XCTAssertEqual(follower.offset, bytes.count)
    }

    func testOneEndlessUnfinishedLineTakesBoundedMemory() throws {
        let path = directory + "/endless.jsonl"
        let prefix = Array((header + "\n" + user + "\n").utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(prefix)))
        // 256 MiB of NULs and no newline, as a sparse file: cheap to make, slow to hold.
        let size = 256 << 20
        XCTAssertEqual(truncate(path, off_t(size)), 0)
        let before = Self.peakResidentBytes()

        let index = try ThreadIndex.open(path: path)
        XCTAssertEqual(index.follower.offset, prefix.count, "the unfinished line is not a record")
        XCTAssertEqual(index.users.count, 1)
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.pendingBytes, size - prefix.count)
        XCTAssertEqual(file.lineCount, 2)

        // A follower that starts at the unfinished line reads it in bounded pieces too.
        let tail = try ThreadFileTail(path: path, follower: index.follower)
        XCTAssertTrue(try tail.readAppended().isEmpty)

        let grown = Self.peakResidentBytes() - before
        // Before the fix the buffer doubled past the line: over 512 MiB for this file.
        XCTAssertLessThan(grown, 64 << 20, "peak memory grew by \(grown >> 20) MiB")
    }

    /// The process's peak resident memory so far (VmHWM).
    static func peakResidentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    func testTheWriterRefusesARecordOverTheLineLimit() throws {
        let path = directory + "/t.jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data((header + "\n" + user + "\n").utf8)))
        let huge = Comment(id: "c1", author: "u1", created: Date(timeIntervalSince1970: 1_744_884_000),
                           body: String(repeating: "\u{1}", count: (8 << 20) / 6 + 1))
        XCTAssertThrowsError(try ThreadFileWriter(path: path).append(.comment(huge))) { error in
            XCTAssertTrue("\(error)".contains("over the 8 MiB"), "\(error)")
        }
        XCTAssertEqual(try ThreadFile.read(path: path).lineCount, 2, "nothing was written")
    }

    // MARK: A full disk (issue 22, item 14)

    func testAFullDiskIsSaidInWords() throws {
        // /dev/full fails every write with ENOSPC, as a full disk does.
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(full, 0)
        let descriptor = FileDescriptor(rawValue: full, path: "/dev/full")
        defer { descriptor.close() }
        XCTAssertThrowsError(try descriptor.writeAll(Array("x\n".utf8))) { error in
            XCTAssertEqual("\(error)", "/dev/full: write: disk full (no space left on device)")
        }
        XCTAssertEqual("\(SystemError("write", path: "/a", code: EDQUOT))", "/a: write: disk full (over the disk quota)")
    }

    // MARK: Private state files (issue 22, item 15)

    func testStateFilesAndTheirDirectoryArePrivateEvenWhenTheyWereNot() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: "/threads/t.jsonl", environment: ["XDG_DATA_HOME": directory + "/data"]))
        let draft = DraftFile(files)
        try draft.save(Data("draft".utf8))
        try ReadMarker(commentID: "c1", position: 0).save(files)
        XCTAssertEqual(try Self.mode(files.directory), 0o700)
        XCTAssertEqual(try Self.mode(draft.path), 0o600)
        XCTAssertEqual(try Self.mode(files.path(for: "read.json")), 0o600)
        XCTAssertEqual(try Self.mode(directory + "/data/comment-tui"), 0o700, "a directory made for them is private too")

        // Files an older version left readable to all are made private when next written.
        XCTAssertEqual(chmod(files.directory, 0o755), 0)
        XCTAssertEqual(chmod(draft.path, 0o644), 0)
        XCTAssertEqual(chmod(files.path(for: "read.json"), 0o644), 0)
        try draft.save(Data("again".utf8))
        try ReadMarker(commentID: "c2", position: 1).save(files)
        XCTAssertEqual(try Self.mode(files.directory), 0o700)
        XCTAssertEqual(try Self.mode(draft.path), 0o600)
        XCTAssertEqual(try Self.mode(files.path(for: "read.json")), 0o600)
        XCTAssertEqual(try draft.load(), Data("again".utf8))

        // A broken draft set aside stays private.
        XCTAssertEqual(chmod(draft.path, 0o644), 0)
        let aside = try draft.setAside()
        XCTAssertEqual(try Self.mode(aside), 0o600)
    }

    static func mode(_ path: String) throws -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError("stat", path: path) }
        return status.st_mode & 0o7777
    }
}
