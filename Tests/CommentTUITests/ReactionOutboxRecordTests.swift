import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI

/// A queued reaction is kept under a record type of its own, which a build from before reactions
/// skips (it reads `queued` as a comment and would post the key as a message); what this
/// branch's main wrote (a reaction in a `queued` record) still reads.
final class ReactionOutboxRecordTests: XCTestCase {
    private func outbox() throws -> CommentOutbox {
        CommentOutbox(files: try XCTUnwrap(MatrixThreadSource.stateFiles(me: "@ann:x", roomID: "!room:x", environment: temporaryDataEnvironment())))
    }

    private func records(_ outbox: CommentOutbox) throws -> [[String: Any]] {
        try String(contentsOfFile: outbox.path, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func testAQueuedReactionIsNoQueuedRecordAnOlderBuildWouldSendAsAComment() throws {
        let outbox = try outbox()
        try outbox.queue(CommentOutbox.Entry(txn: "c1", author: "@ann:x", created: Date(), body: "a comment"))
        var reaction = CommentOutbox.Entry(txn: "reaction-1", author: "@ann:x", created: Date(), body: "👍")
        reaction.reactsTo = "$event"
        try outbox.queue(reaction)
        // What an older build sends: the entries of `queued` records.
        let olderSends = try records(outbox).filter { $0["type"] as? String == "queued" }
            .compactMap { ($0["entry"] as? [String: Any])?["body"] as? String }
        XCTAssertEqual(olderSends, ["a comment"])
        XCTAssertEqual(try records(outbox).map { $0["type"] as? String }, ["queued", "queued_reaction"])
        XCTAssertEqual(try outbox.unsent().map(\.txn), ["c1", "reaction-1"])
        try outbox.markSent("reaction-1", event: "$r")
        XCTAssertEqual(try outbox.unsent().map(\.txn), ["c1"])
    }

    func testAReactionInAQueuedRecordAsWrittenBeforeStillReads() throws {
        let outbox = try outbox()
        try outbox.queue(CommentOutbox.Entry(txn: "c1", author: "@ann:x", created: Date(), body: "a comment"))
        let legacy = #"{"entry":{"author":"@ann:x","body":"🎉","created":1700000000,"reacts_to":"$event","txn":"reaction-old"},"type":"queued"}"#
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: outbox.path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((legacy + "\n").utf8))
        try handle.close()
        let unsent = try outbox.unsent()
        XCTAssertEqual(unsent.map(\.txn), ["c1", "reaction-old"])
        XCTAssertEqual(unsent.last?.reactsTo, "$event")
    }
}
