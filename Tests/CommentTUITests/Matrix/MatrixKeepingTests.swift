import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// What outlives the client on this machine and what carries a thread between places: the
/// outbox after a crash, the offline copy, imports. One Synapse for the class, stopped by its pid.
final class MatrixKeepingTests: SharedSynapseTestCase {
    func testAnOutboxLeftByACrashIsSentOnceWhetherOrNotTheServerHadIt() throws {
        let server = try server
        let (_, ann, room) = try twoUsersInARoom("Crash", on: server)
        try ann.other.sendText(roomID: room, body: "post")
        let environment = temporaryDataEnvironment()
        let outbox = try outbox(of: ann, in: room, environment: environment)
        // Killed after the send reached the server but before it was marked sent…
        let reached = CommentOutbox.Entry(txn: "c-reached", author: ann.account.userID, created: Date(), body: "reached the server")
        try outbox.queue(reached)
        _ = try ann.client.send(room: room, transactionID: reached.txn, content: ["msgtype": "m.text", "body": "reached the server"])
        // …and killed between the outbox write and the first attempt.
        let queued = CommentOutbox.Entry(txn: "c-queued", author: ann.account.userID, created: Date(), body: "never left the machine")
        try outbox.queue(queued)
        XCTAssertEqual(try outbox.unsent().map(\.txn), ["c-reached", "c-queued"])

        let source = try open(room, as: ann, environment: environment)
        defer { source.stop() }
        XCTAssertEqual(source.unsentComments.map(\.id), ["c-queued"], "the server's echo shows the first was sent")
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        app.wallTime = Date()
        let lines = app.render().buffer.trimmedLines
        XCTAssertTrue(lines.contains { $0.contains("sending…") }, "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("reached the server") }.count, 1, "\(lines)")
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed("c-queued") = $0 { true } else { false } } }
        let bodies = try ann.other.messageBodies(roomID: room)
        XCTAssertEqual(bodies.filter { $0 == "reached the server" }.count, 1)
        XCTAssertEqual(bodies.filter { $0 == "never left the machine" }.count, 1)
        XCTAssertTrue(try outbox.unsent().isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outbox.path), "an empty outbox is removed")
    }

    /// A comment sent from here and edited from another client stays edited in the offline copy:
    /// the copy keeps it under its event id, the edit comes naming it by the app's id.
    func testAnEditOfOurSentCommentIsKeptInTheOfflineCopy() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Second thoughts", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let environment = temporaryDataEnvironment()
        let first = try open(room, as: ann, environment: environment)
        let mine = comment(by: ann, "first thought")
        XCTAssertEqual(first.send(mine), .pending)
        try collectUpdates(from: first) { $0.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } } }
        let eventID = try XCTUnwrap(first.locked { first.timeline.eventID(forComment: mine.id) })
        try ann.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "* second thought",
            "m.new_content": ["msgtype": "m.text", "body": "second thought"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": eventID],
        ])
        try collectUpdates(from: first) { $0.contains { if case .commentEdited(let edited) = $0 { edited.body == "second thought" } else { false } } }
        first.stop()

        let again = try open(room, as: ann, follows: false, environment: environment)
        defer { again.stop() }
        XCTAssertTrue(again.isFromCache)
        XCTAssertEqual((again.openedComments as! ArrayCommentStore).comments.map(\.body), ["second thought"])
    }

    func testACacheThatDoesNotReadIsMovedAsideAndRebuilt() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Broken cache", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "a comment")
        let environment = temporaryDataEnvironment()
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let cache = try XCTUnwrap(MatrixRoomCache(me: ann.account.userID, address: address, environment: environment))
        try FileManager.default.createDirectory(atPath: (cache.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("{\"type\":\"room\",\"room\":\"!x\"}\n{not json".utf8).write(to: URL(fileURLWithPath: cache.path))

        let source = try open(room, as: ann, follows: false, environment: environment)
        XCTAssertEqual((source.openedComments as! ArrayCommentStore).comments.map(\.body), ["a comment"], "read from the server")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.path + ".broken-1"), "the bad copy is kept aside")
        let rebuilt = try XCTUnwrap(cache.load())
        XCTAssertEqual(rebuilt.roomID, room)
        XCTAssertEqual(rebuilt.comments.map(\.body), ["a comment"])
    }

    func testAnImportKeepsAuthorsAndTimesAndRunsAgainWithoutDuplicates() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Archive", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "The archive")
        let marco = User(id: "u-marco", handle: "marco", name: "Marco Polo")
        let zoe = User(id: "u-zoe", handle: "zoe", name: "Zoë")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let comments = (1...5).map { n in
            Comment(id: "c\(n)", author: n.isMultiple(of: 2) ? zoe.id : marco.id, created: start.addingTimeInterval(Double(n) * 60),
                    body: n == 3 ? "with **bold** and ||a spoiler||" : "comment \(n)")
        }
        let file = CommentThread(id: "t-archive", title: "Archive", author: marco.id, created: start, body: "post",
                                 users: [marco, zoe], comments: comments)
        let partial = CommentThread(id: file.id, title: file.title, author: file.author, created: file.created, body: file.body,
                                    users: file.users, comments: Array(comments.prefix(3)))
        let source = try open(room, as: ann, follows: false)
        // Cut short after three comments, then run again: the rest, once.
        XCTAssertEqual(try source.importComments(of: partial), .init(posted: 3, alreadyThere: 0))
        XCTAssertEqual(try source.importComments(of: file), .init(posted: 2, alreadyThere: 3))
        XCTAssertEqual(try source.importComments(of: file), .init(posted: 0, alreadyThere: 5))

        let reread = try open(room, as: ann, follows: false)
        let back = try reread.allComments()
        XCTAssertEqual(back.map(\.body), comments.map(\.body))
        XCTAssertEqual(back.map(\.created), comments.map(\.created))
        let users = Dictionary(reread.users.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(back.map { users[$0.author]?.name }, comments.map { $0.author == marco.id ? "Marco Polo" : "Zoë" })
        XCTAssertEqual(back.map { users[$0.author]?.handle }, comments.map { $0.author == marco.id ? "marco" : "zoe" })
    }

    func testAnImportPostsAnEditedCommentAsEditedAndLeavesADeletedOneOut() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Edited archive", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "The archive")
        let marco = User(id: "u-marco", handle: "marco", name: "Marco Polo")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let edited = start.addingTimeInterval(3600)
        let comments = [
            Comment(id: "c1", author: marco.id, created: start, body: "fixed text", edited: edited),
            Comment(id: "c2", author: marco.id, created: start.addingTimeInterval(60), body: "soon gone").applying(
                CommentChange(comment: "c2", author: marco.id, created: edited, kind: .delete)),
            Comment(id: "c3", author: marco.id, created: start.addingTimeInterval(120), body: "as written"),
        ]
        XCTAssertTrue(comments[1].isDeleted)
        let file = CommentThread(id: "t-edited", title: "Edited", author: marco.id, created: start, body: "post",
                                 users: [marco], comments: comments)
        let source = try open(room, as: ann, follows: false)
        XCTAssertEqual(try source.importComments(of: file), .init(posted: 2, alreadyThere: 0, deleted: 1))
        XCTAssertEqual(try source.importComments(of: file), .init(posted: 0, alreadyThere: 2, deleted: 1), "nothing twice")

        let back = try open(room, as: ann, follows: false).allComments()
        XCTAssertEqual(back.map(\.body), ["fixed text", "as written"], "the deleted comment is not in the room")
        XCTAssertEqual(back.map(\.edited), [edited, nil], "shown edited when it was in the file")
        let events = try ann.other.messages(roomID: room, dir: "f")
        XCTAssertFalse(events.contains { (($0["content"] as? [String: Any])?["body"] as? String) == Comment.deletedBody })
    }

    func testAnApplicationServiceImportPostsAsEachAuthorAtTheOriginalTime() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Migrated", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "The migrated thread")
        let marco = User(id: "u-marco", handle: "Marco", name: "Marco Polo")
        let zoe = User(id: "u-zoe", handle: "zoe", name: "Zoë")
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        let comments = (1...4).map { n in
            Comment(id: "c\(n)", author: n.isMultiple(of: 2) ? zoe.id : marco.id, created: start.addingTimeInterval(Double(n) * 3600),
                    body: "old comment \(n)")
        }
        let file = CommentThread(id: "t-migrated", title: "Migrated", author: marco.id, created: start, body: "post",
                                 users: [marco, zoe], comments: comments)
        let source = try open(room, as: ann, follows: false)
        XCTAssertEqual(try source.importComments(of: file, appServiceToken: server.appServiceToken), .init(posted: 4, alreadyThere: 0))
        XCTAssertEqual(try source.importComments(of: file, appServiceToken: server.appServiceToken), .init(posted: 0, alreadyThere: 4))

        let events = try ann.other.messages(roomID: room, dir: "f").filter { ($0["content"] as? [String: Any])?["body"] as? String != nil }
        let imported = events.filter { (($0["content"] as? [String: Any])?["body"] as? String)?.hasPrefix("old comment") == true }
        XCTAssertEqual(imported.map { $0["sender"] as? String },
                       comments.map { "@import_\($0.author == marco.id ? "marco" : "zoe"):\(server.serverName)" })
        XCTAssertEqual(imported.map { ($0["origin_server_ts"] as? Int).map { Date(timeIntervalSince1970: Double($0) / 1000) } },
                       comments.map(\.created), "posted at the original times")

        let reread = try open(room, as: ann, follows: false)
        let back = try reread.allComments()
        XCTAssertEqual(back.map(\.created), comments.map(\.created))
        let users = Dictionary(reread.users.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(back.map { users[$0.author]?.name }, ["Marco Polo", "Zoë", "Marco Polo", "Zoë"])
    }
}
