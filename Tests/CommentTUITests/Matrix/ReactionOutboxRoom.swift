import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// The room the reaction outbox suites react in: Bo made it and posted, then wrote `comment`
/// for Ann to react to; Ann's client keeps its outbox and offline copy in `environment`.
struct ReactionOutboxRoom {
    let bo: MatrixTestUser
    let ann: MatrixTestUser
    let room: String
    let comment: String
    let environment: [String: String]

    /// Ann's reaction keys in the room, as Bo's client sees them, sorted (a redacted one is
    /// gone from them).
    func annsReactions() throws -> [String] {
        try bo.other.messages(roomID: room).compactMap { event in
            guard event["type"] as? String == "m.reaction", event["sender"] as? String == ann.account.userID,
                  let relation = (event["content"] as? [String: Any])?["m.relates_to"] as? [String: Any] else { return nil }
            return relation["key"] as? String
        }.sorted()
    }

    /// The outbox entry of Ann's reaction with `key` to the comment, as the client queues it.
    func queuedReaction(_ key: String) -> CommentOutbox.Entry {
        var entry = CommentOutbox.Entry(txn: "reaction-\(UUID().uuidString)", author: ann.account.userID, created: Date(), body: key)
        entry.reactsTo = comment
        return entry
    }

    /// Sends Ann's reaction with `key` to the comment under `transactionID`: with the entry's
    /// own, as a client killed before it marked the entry sent left it; returns its event id.
    @discardableResult
    func sendReaction(_ key: String, transactionID: String) throws -> String {
        let relation: JSONValue = ["rel_type": "m.annotation", "event_id": .string(comment), "key": .string(key)]
        return try ann.client.send(room: room, type: "m.reaction", transactionID: transactionID, content: ["m.relates_to": relation])
    }
}

extension XCTestCase {
    /// Bo's room named `name` with Ann in it, his post and then his `comment`, and a fresh
    /// data folder for Ann's client.
    func reactionOutboxRoom(_ name: String, comment body: String, on server: SynapseServer) throws -> ReactionOutboxRoom {
        let (bo, ann, room) = try twoUsersInARoom(name, on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let comment = try bo.other.sendText(roomID: room, body: body)
        return ReactionOutboxRoom(bo: bo, ann: ann, room: room, comment: comment, environment: temporaryDataEnvironment())
    }
}
