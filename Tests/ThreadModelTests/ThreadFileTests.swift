import Foundation
import XCTest
@testable import ThreadModel

final class ThreadFileTests: XCTestCase {
    private func lines(_ text: String) -> [UInt8] { Array(text.utf8) }

    private let header = #"{"type":"thread","id":"t1","title":"Hello","author":"u1","created":"2025-04-17T10:00:00Z","body":"Post"}"#
    private let user = #"{"type":"user","id":"u1","handle":"tatiana","name":"Tatiana B."}"#

    func testDemoRoundTripsThroughTheFileFormat() {
        let thread = DemoThread.make()
        var bytes: [UInt8] = []
        let encoder = ThreadRecordEncoder()
        for record in ThreadRecord.records(of: thread) { encoder.append(record, to: &bytes) }
        let file = ThreadFileReader().read(bytes)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.title, thread.title)
        XCTAssertEqual(file.thread.body, thread.body)
        XCTAssertEqual(file.thread.comments, thread.comments)
        XCTAssertEqual(file.thread.users, thread.users)
        // Writing what was read gives the same bytes: the format is canonical.
        var again: [UInt8] = []
        for record in ThreadRecord.records(of: file.thread) { encoder.append(record, to: &again) }
        XCTAssertEqual(again, bytes)
    }

    func testCanonicalLineHasTypeFirstFixedOrderAndUnescapedSlash() {
        let comment = Comment(id: "c1", author: "u2", created: Date(timeIntervalSince1970: 1_744_884_300),
                              body: "a/b \"q\" \\ tab\t nl\n esc\u{1B} 日本 👍", edited: Date(timeIntervalSince1970: 1_744_884_420))
        let line = String(decoding: ThreadRecordEncoder().encode(.comment(comment)), as: UTF8.self)
        XCTAssertEqual(line, #"{"type":"comment","id":"c1","author":"u2","created":"2025-04-17T10:05:00Z","body":"a/b \"q\" \\ tab\t nl\n esc\u001b 日本 👍","edited":"2025-04-17T10:07:00Z"}"# + "\n")
        XCTAssertEqual(ThreadRecordDecoder().decode(ArraySlice(line.utf8.dropLast())), .record(.comment(comment)))
    }

    func testReaderAcceptsAnyOrderWhitespaceUnknownFieldsAndTypes() {
        let text = """
        { "body" : "Post", "created":"2025-04-17T12:00:00+02:00", "author":"u1", "title":"Hello", "id":"t1", "type":"thread", "extra": [1,2] }
        {"type":"comment","id":"c1","author":"u2","created":"2025-04-17T10:05:00.250Z","body":"hi @tatiana"}
        {"type":"reaction","id":"r1","emoji":"👍"}
        \(user)
        {"type":"user","id":"u2","handle":"marco","name":"Marco","avatar":"x"}

        """
        let file = ThreadFileReader().read(lines(text))
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.created, Date(timeIntervalSince1970: 1_744_884_000))
        XCTAssertEqual(file.thread.comments.first?.created, Date(timeIntervalSince1970: 1_744_884_300.25))
        XCTAssertEqual(file.thread.displayName(of: "u2"), "Marco", "users may come after their comments")
        XCTAssertEqual(file.recordCount, 4)
    }

    func testMalformedLinesAreReportedWithLineNumbersAndSkipped() {
        let text = """
        \(header)
        \(user)
        not json at all
        {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:05:00Z","body":"kept"}
        {"type":"comment","id":"c2","author":"u1","created":"yesterday","body":"bad time"}
        [1,2,3]
        {"id":"c3"}
        {"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:06:00Z","body":"duplicate id"}
        {"type":"user","id":"u9","handle":"bad handle!","name":"X"}
        {"type":"user","id":"u8","handle":"TATIANA","name":"Impostor"}
        {"type":"comment","id":"c4","author":"ghost","created":"2025-04-17T10:07:00Z","body":"by nobody"}
        {"type":"comment","id":"c5","author":"u1","created":"2025-04-17T10:08:00Z","body":"also kept"}

        """
        let file = ThreadFileReader().read(lines(text))
        XCTAssertEqual(file.problems.map(\.line), [3, 5, 6, 7, 8, 9, 10, 11])
        XCTAssertTrue(file.problems[0].message.contains("not valid JSON"))
        XCTAssertTrue(file.problems[1].message.contains("created"))
        XCTAssertTrue(file.problems[4].message.contains("used before"))
        XCTAssertTrue(file.problems[6].message.contains("already belongs"))
        XCTAssertTrue(file.problems[7].message.contains("unknown user"))
        XCTAssertEqual(file.thread.comments.map(\.body), ["kept", "by nobody", "also kept"])
        XCTAssertEqual(file.thread.user(handle: "tatiana")?.name, "Tatiana B.")
    }

    func testMissingThreadRecordIsAProblem() {
        let file = ThreadFileReader().read(lines(user + "\n"))
        XCTAssertEqual(file.problems.count, 1)
        XCTAssertTrue(file.problems[0].message.contains("no thread record"))
    }

    func testInvalidUTF8AndLoneSurrogatesAreRepairedNotLost() {
        var bytes = lines(header + "\n" + user + "\n")
        bytes += lines(#"{"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:05:00Z","body":"bad "#)
        bytes += [0xFF, 0xC3, 0x28, 0xED, 0xA0, 0x80]  // stray byte, truncated sequence, encoded surrogate
        bytes += lines(#" end"}"# + "\n")
        bytes += lines(#"{"type":"comment","id":"c2","author":"u1","created":"2025-04-17T10:06:00Z","body":"lone \ud800 and \udc00 pair \ud83d\ude00 esc \\ud800"}"# + "\n")
        let file = ThreadFileReader().read(bytes)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.comments.count, 2)
        let first = file.thread.comments[0].body
        XCTAssertEqual(first, "bad \u{FFFD}\u{FFFD}(\u{FFFD}\u{FFFD}\u{FFFD} end")
        XCTAssertFalse(first.unicodeScalars.contains { $0.value >= 0xD800 && $0.value < 0xE000 })
        XCTAssertEqual(file.thread.comments[1].body, "lone \u{FFFD} and \u{FFFD} pair 😀 esc \\ud800")
    }

    func testRawControlCharactersInStringsAreEscapedNotFatal() {
        let text = header + "\n" + user + "\n" + #"{"type":"comment","id":"c1","author":"u1","created":"2025-04-17T10:05:00Z","body":"a\tb"# + "\u{1B}[31m\t\"}\n"
        let file = ThreadFileReader().read(lines(text))
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.comments.first?.body, "a\tb\u{1B}[31m\t")
    }

    func testUnterminatedLastLineIsPendingAndTornOnceFollowed() throws {
        let complete = header + "\n" + user + "\n"
        let torn = #"{"type":"comment","id":"c1","author":"u1","crea"#
        let pending = ThreadFileReader().read(lines(complete + torn))
        XCTAssertEqual(pending.problems, [], "a line still being written is not a problem yet")
        XCTAssertEqual(pending.pendingBytes, torn.utf8.count)
        XCTAssertEqual(pending.thread.comments, [])

        // The next append starts on a new line: the fragment becomes a torn line of its own.
        let path = try temporaryFile(contents: lines(complete + torn))
        let comment = Comment(id: "c2", author: "u1", created: Date(timeIntervalSince1970: 1_744_884_600), body: "after")
        try ThreadFileWriter(path: path).append(.comment(comment))
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems.map(\.line), [3])
        XCTAssertTrue(file.problems[0].message.contains("torn"), file.problems[0].message)
        XCTAssertEqual(file.thread.comments, [comment])
        XCTAssertEqual(file.pendingBytes, 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix(complete + torn + "\n"), "nothing before the append was rewritten")
    }

    func testCreateNeverReplacesAnExistingFile() throws {
        let path = try temporaryFile(contents: lines("keep me\n"))
        XCTAssertThrowsError(try ThreadFileWriter(path: path).create([.user(User(id: "u1", handle: "a", name: "A"))])) { error in
            XCTAssertTrue((error as? SystemError)?.isAlreadyExists == true, "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "keep me\n")
        let directory = (path as NSString).deletingLastPathComponent
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }, [])
    }

    func testAppendToMissingFileFailsWithThePath() {
        let path = NSTemporaryDirectory() + "missing-\(UUID().uuidString)/thread.jsonl"
        XCTAssertThrowsError(try ThreadFileWriter(path: path).append(.user(User(id: "u1", handle: "a", name: "A")))) { error in
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
    }

    func testTwoWritersOnTheirOwnDescriptorsNeverInterleave() throws {
        let path = try temporaryFile(contents: lines(header + "\n" + user + "\n"))
        let writer = ThreadFileWriter(path: path)
        let body = String(repeating: "long body ", count: 400)  // 4 KB: larger than a pipe's atomic write
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in 0..<1000 {
                let comment = Comment(id: ThreadFileWriter.newCommentID(), author: "u1",
                                      created: Date(timeIntervalSince1970: 1_744_884_000), body: "\(worker)-\(index) \(body)")
                try! writer.append(.comment(comment))
            }
        }
        let file = try ThreadFile.read(path: path)
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(file.thread.comments.count, 2000)
        for worker in 0..<2 {
            let mine = file.thread.comments.filter { $0.body.hasPrefix("\(worker)-") }.map { Int($0.body.split(separator: " ")[0].split(separator: "-")[1])! }
            XCTAssertEqual(mine, Array(0..<1000), "each writer's comments are all there, in its order")
        }
    }

    func testTimestampsFormatAndParse() {
        XCTAssertEqual(Timestamp.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Timestamp.format(Date(timeIntervalSince1970: 1_709_210_096.9)), "2024-02-29T12:34:56Z")
        XCTAssertEqual(Timestamp.format(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59Z")
        XCTAssertEqual(Timestamp.parse("2024-02-29T12:34:56Z"), Date(timeIntervalSince1970: 1_709_210_096))
        XCTAssertEqual(Timestamp.parse("2024-02-29T13:34:56+01:00"), Date(timeIntervalSince1970: 1_709_210_096))
        for bad in ["", "2024-02-29", "2024-13-01T00:00:00Z", "2024-02-29T12:34:56", "2024-02-29T12:34:56Zjunk", "2024-02-29T12:34:56.Z"] {
            XCTAssertNil(Timestamp.parse(bad), bad)
        }
    }

    func testHandles() {
        XCTAssertTrue(Handle.isValid("lin.wei"))
        XCTAssertTrue(Handle.isValid(String(repeating: "a", count: 39)))
        XCTAssertFalse(Handle.isValid(String(repeating: "a", count: 40)))
        XCTAssertFalse(Handle.isValid(""))
        XCTAssertFalse(Handle.isValid("a b"))
        XCTAssertFalse(Handle.isValid("ünï"))
    }

    private func temporaryFile(contents: [UInt8]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("threadfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("thread.jsonl")
        try Data(contents).write(to: url)
        return url.path
    }
}
