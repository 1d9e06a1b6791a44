import XCTest
import Foundation
@testable import ThreadModel

final class ThreadFileFollowerTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_744_884_000)

    func record(_ i: Int) -> ThreadRecord {
        .comment(Comment(id: "c\(i)", author: "u1", created: start.addingTimeInterval(Double(i)), body: "comment \(i) 日本 👍 \(String(repeating: "x", count: i % 97))"))
    }

    func encoded(_ records: [ThreadRecord]) -> [UInt8] {
        records.flatMap { ThreadRecordEncoder().encode($0) }
    }

    func testAppendsInPiecesOfEverySizeGiveTheSameRecords() {
        let records = (1...200).map(record)
        let bytes = encoded(records)
        var rng = SystemRandomNumberGenerator()
        for maxPiece in [1, 2, 7, 64, 1000, 100_000] {
            var follower = ThreadFileFollower(offset: 10, lineCount: 3)
            var received: [(ThreadRecord, Int)] = []
            var i = 0
            while i < bytes.count {
                let n = min(bytes.count - i, Int.random(in: 1...maxPiece, using: &rng))
                let update = follower.ingest(Array(bytes[i..<(i + n)]))
                XCTAssertEqual(update.problems, [])
                received += update.records.map { ($0.record, $0.line) }
                i += n
            }
            XCTAssertEqual(received.map(\.0), records, "pieces up to \(maxPiece) bytes")
            XCTAssertEqual(received.map(\.1), Array(4...203), "line numbers continue after the 3 read")
            XCTAssertEqual(follower.offset, 10 + bytes.count)
            XCTAssertEqual(follower.pendingByteCount, 0)
        }
    }

    func testAnUnterminatedLineWaitsThenATornOneIsReported() {
        var follower = ThreadFileFollower(offset: 0, lineCount: 0)
        let whole = encoded([record(1)])
        let fragment = Array(whole[0..<25])
        XCTAssertTrue(follower.ingest(fragment).isEmpty, "not a record yet")
        XCTAssertEqual(follower.pendingByteCount, 25)
        XCTAssertEqual(follower.offset, 0)
        // The writer died; the next append starts on a new line, ending the fragment.
        let update = follower.ingest([0x0A] + encoded([record(2)]))
        XCTAssertEqual(update.records.map(\.record), [record(2)])
        XCTAssertEqual(update.records.map(\.line), [2])
        XCTAssertEqual(update.problems.count, 1)
        XCTAssertEqual(update.problems.first?.line, 1)
        XCTAssertTrue(update.problems.first?.message.contains("torn") ?? false)
    }

    func testTailReadsOnlyWhatWasAppended() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.jsonl").path
        let header = ThreadRecord.thread(ThreadHeader(id: "t", title: "T", author: "u1", created: start, body: ""))
        let user = ThreadRecord.user(User(id: "u1", handle: "ann", name: "Ann"))
        try ThreadFileWriter(path: path).create([header, user, record(1)])
        let (file, follower) = try ThreadFile.readFollowing(path: path)
        XCTAssertEqual(file.thread.comments.count, 1)
        let tail = try ThreadFileTail(path: path, follower: follower)
        XCTAssertTrue(try tail.readAppended().isEmpty)
        let writer = ThreadFileWriter(path: path)
        try writer.append(record(2))
        try writer.append(record(3))
        var update = try tail.readAppended()
        XCTAssertEqual(update.records.map(\.record), [record(2), record(3)])
        XCTAssertEqual(update.records.map(\.line), [4, 5])
        // Half a record written raw: nothing yet; the rest: the record.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        let next = encoded([record(4)])
        handle.write(Data(next[0..<10]))
        XCTAssertTrue(try tail.readAppended().isEmpty)
        handle.write(Data(next[10...]))
        try handle.close()
        update = try tail.readAppended()
        XCTAssertEqual(update.records.map(\.record), [record(4)])
        XCTAssertTrue(try tail.readAppended().isEmpty, "nothing is read twice")
    }
}
