import Foundation
import XCTest
import SynapseFixture
@testable import ThreadModel
@testable import CommentTUI

/// Reactions carried between a thread file and a room, against a real Synapse: `import` sends a
/// file's standing reactions to the imported comments once (run again, none twice), as each
/// person with an application service; `export` writes a room's reactions as `react` records.
final class MatrixReactionImportTests: SharedSynapseTestCase {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)
    private static let marco = User(id: "u-marco", handle: "marco", name: "Marco Polo")
    private static let zoe = User(id: "u-zoe", handle: "zoe", name: "Zoë")

    /// Two comments; 👍 from both on the first, 🎉 from Zoë on the second, and Marco's 👀 taken back.
    private func fileThread(_ id: String) throws -> CommentThread {
        try ThreadFile.read(path: try filePath(id)).thread
    }

    private func filePath(_ id: String) throws -> String {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        let comments = (1...2).map { Comment(id: "c\($0)", author: Self.marco.id, created: Self.start + Double($0) * 60, body: "comment \($0)") }
        func react(_ comment: String, _ author: User, _ key: String, removes: Bool = false) -> ThreadRecord {
            .reaction(ReactionChange(comment: comment, author: author.id, created: Self.start + 600, key: key, removes: removes))
        }
        try ThreadFileWriter(path: path).create([
            .thread(ThreadHeader(id: id, title: "Archive", author: Self.marco.id, created: Self.start, body: "post")),
            .user(Self.marco), .user(Self.zoe),
        ] + comments.map(ThreadRecord.comment) + [
            react("c1", Self.marco, "👍"), react("c1", Self.zoe, "👍"), react("c2", Self.zoe, "🎉"),
            react("c2", Self.marco, "👀"), react("c2", Self.marco, "👀", removes: true),
        ])
        XCTAssertEqual(try ThreadFile.read(path: path).problems, [])
        return path
    }

    /// Runs a verb as `user`, logged in in a configuration of its own.
    private func run(_ verb: Verb, _ arguments: [String], as user: MatrixTestUser, on server: SynapseServer) throws -> (status: Int32, output: String, errors: String) {
        let config = try temporaryDirectory(self).path
        let environment = ["XDG_CONFIG_HOME": config, "HOME": config, "XDG_DATA_HOME": config + "/data"]
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(.init(userID: user.account.userID, homeserver: server.baseURL.absoluteString, accessToken: user.account.accessToken,
                           deviceID: "DEVICE"))
        try accounts.save()
        var output = ""
        var errors = ""
        let context = CommandContext(environment: environment, now: Date.init,
                                     writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                                     readInput: { _ in [] }, inputIsTerminal: false)
        let status = verb.run(arguments, context: context)
        return (status, output, errors)
    }

    /// The room's reactions: (annotated event's body, key, sender).
    private func roomReactions(_ client: MatrixTestClient, _ room: String) throws -> [String] {
        let events = try client.messages(roomID: room, dir: "f", limit: 200)
        let bodies = Dictionary(events.compactMap { event -> (String, String)? in
            guard let id = event["event_id"] as? String, let body = (event["content"] as? [String: Any])?["body"] as? String else { return nil }
            return (id, body)
        }, uniquingKeysWith: { a, _ in a })
        return events.compactMap { event in
            guard event["type"] as? String == "m.reaction",
                  let relation = (event["content"] as? [String: Any])?["m.relates_to"] as? [String: Any],
                  let target = relation["event_id"] as? String, let key = relation["key"] as? String else { return nil }
            return "\(bodies[target] ?? target) \(key) \(event["sender"] as? String ?? "")"
        }.sorted()
    }

    func testAnImportSendsTheFilesReactionsOnceAndAnExportWritesThemBack() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Archive", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "The archive")
        let path = try filePath("t-reactions")
        let first = try run(.importThread, [path, "matrix:\(room)"], as: ann, on: server)
        XCTAssertEqual(first.status, 0, first.errors)
        XCTAssertEqual(first.output, "imported 2 comments into \(room), and 2 reactions\n")
        let again = try run(.importThread, [path, "matrix:\(room)"], as: ann, on: server)
        XCTAssertEqual(again.output, "imported 0 comments into \(room) (2 were there already)\n", "none twice")
        let me = ann.account.userID
        XCTAssertEqual(try roomReactions(ann.other, room), ["comment 1 👍 \(me)", "comment 2 🎉 \(me)"],
                       "the importing account reacts once per comment and key")

        // The room back to a file: the reactions as react records, on the comments' ids there.
        let exported = try run(.export, ["matrix:\(room)"], as: ann, on: server)
        XCTAssertEqual(exported.status, 0, exported.errors)
        let copy = try temporaryDirectory(self).appendingPathComponent("back.jsonl").path
        try exported.output.write(toFile: copy, atomically: true, encoding: .utf8)
        let back = try ThreadFile.read(path: copy)
        XCTAssertEqual(back.problems, [])
        XCTAssertEqual(exported.output.split(separator: "\n").filter { $0.hasPrefix(#"{"type":"react","#) }.count, 2)
        XCTAssertEqual(back.thread.comments.filter { $0.body.hasPrefix("comment") }.map { comment in
            back.thread.reactions.counts(of: comment.id, me: me).map { "\($0.key)\($0.count)\($0.includesMine ? "*" : "")" }
        }, [["👍1*"], ["🎉1*"]])
    }

    func testAnApplicationServiceImportReactsAsEachPerson() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Migrated", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "The migrated thread")
        let thread = try fileThread("t-reactions-as")
        let source = try open(room, as: ann, follows: false)
        XCTAssertEqual(try source.importComments(of: thread, appServiceToken: server.appServiceToken), .init(posted: 2, alreadyThere: 0, reactions: 3))
        XCTAssertEqual(try source.importComments(of: thread, appServiceToken: server.appServiceToken), .init(posted: 0, alreadyThere: 2, reactions: 0))
        let (marco, zoe) = ("@import_marco:\(server.serverName)", "@import_zoe:\(server.serverName)")
        XCTAssertEqual(try roomReactions(ann.other, room), ["comment 1 👍 \(marco)", "comment 1 👍 \(zoe)", "comment 2 🎉 \(zoe)"])
        // Read by the client, the counts are the file's.
        let reread = try open(room, as: ann, follows: false)
        let comments = try reread.allComments()
        let tally = reread.reactionTally(of: comments)
        XCTAssertEqual(comments.map { tally.counts(of: $0.id, me: "").map { "\($0.key)\($0.count)" } }, [["👍2"], ["🎉1"]])
    }
}
