import Foundation
import XCTest
@testable import ThreadModel

/// The thread files the record suites write: a fresh `t.jsonl` per call, removed after the test,
/// and the head they start with.
enum RecordFileFixture {
    static let start = Date(timeIntervalSince1970: 1_744_884_000)

    /// The thread "T" by ann (`u1`), with ann and bo (`u2`) as its users.
    static let head: [ThreadRecord] = [
        .thread(ThreadHeader(id: "t", title: "T", author: "u1", created: start, body: "post")),
        .user(User(id: "u1", handle: "ann", name: "Ann")),
        .user(User(id: "u2", handle: "bo", name: "Bo")),
    ]
}

extension XCTestCase {
    /// The path of a new thread file holding `records` (written canonically, locked as `post`
    /// writes), in a temporary folder removed after the test.
    func recordFile(_ records: [ThreadRecord]) throws -> String {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.jsonl").path
        try ThreadFileWriter(path: path).create(records)
        return path
    }
}
