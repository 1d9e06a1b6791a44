import Foundation
import CommentTUI
import SynapseFixture

/// The room issue 32 measures posts in: 1,000 posts (Matrix thread roots) and 50,000 replies,
/// 5,000 of them in one post (`busiest`), the others spread over the rest, sent as Element
/// sends a thread reply.
///
/// Filling it takes Synapse most of half an hour here, so the homeserver's directory is kept
/// (`COMMENT_TUI_BENCH_POSTS_DIR`, default `.build/bench-posts-<posts>-<replies>`) and later runs
/// read the same room. `COMMENT_TUI_BENCH_POSTS` and `COMMENT_TUI_BENCH_POST_REPLIES` set other sizes.
struct MatrixPostsRoom: Codable {
    static let environment = ProcessInfo.processInfo.environment
    static let posts = environment["COMMENT_TUI_BENCH_POSTS"].flatMap(Int.init) ?? 1000
    static let replies = environment["COMMENT_TUI_BENCH_POST_REPLIES"].flatMap(Int.init) ?? 50_000
    /// Replies in the busiest post (a tenth of all, at most).
    static var busiestReplies: Int { min(5000, replies / 10) }
    static let directory = URL(fileURLWithPath: environment["COMMENT_TUI_BENCH_POSTS_DIR"]
        ?? FileManager.default.currentDirectoryPath + "/.build/bench-posts-\(posts)-\(replies)")

    var room: String
    var reader: String
    var readerToken: String
    var readerPassword: String
    /// The post with `busiestReplies` replies, and the newest reply in it.
    var busiest: String
    var busiestNewest: String
    var posts: Int
    var replies: Int
    var fillSeconds: Double

    /// The kept room, or a new one filled now (8 senders) and recorded for the next run.
    static func filled(on server: SynapseServer) throws -> MatrixPostsRoom {
        let record = directory.appendingPathComponent("room.json")
        if let data = try? Data(contentsOf: record), let room = try? JSONDecoder().decode(MatrixPostsRoom.self, from: data),
           room.posts == posts, room.replies == replies {
            return room
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let writer = try server.register(localpart: "poster-\(suffix)", displayName: "Poster")
        let replier = try server.register(localpart: "replier-\(suffix)", displayName: "Replier")
        let reader = try server.register(localpart: "reader-\(suffix)", displayName: "Reader")
        let sender = server.client(for: writer)
        let room = try sender.createRoom(name: "A thousand posts", preset: .publicChat)
        _ = try server.client(for: replier).join(room)
        _ = try server.client(for: reader).join(room)
        let start = benchNow()
        let roots = Roots(count: posts)
        let failures = FailureCount()
        let workers = 8
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in stride(from: worker, to: posts, by: workers) {
                do {
                    let id = try sender.sendText(roomID: room, body: "Post \(n + 1)\nWhat the post is about, in a sentence or two.")
                    roots.set(n, id)
                } catch {
                    failures.add()
                }
            }
        }
        guard failures.value == 0, let busiest = roots.ids.first else { throw BenchmarkFailure("\(failures.value) posts could not be sent") }
        // The busiest post's replies first, then the others' spread in turn; 8 at a time, each
        // worker with its own replies so a post's replies are in order per worker.
        let others = roots.ids.dropFirst()
        let plan: [String] = Array(repeating: busiest, count: busiestReplies)
            + (0..<(replies - busiestReplies)).map { others.isEmpty ? busiest : others[others.startIndex + $0 % others.count] }
        let repliers = [sender, server.client(for: replier)]
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in stride(from: worker, to: plan.count, by: workers) {
                let content: [String: Any] = [
                    "msgtype": "m.text", "body": "reply \(n + 1): a comment of a typical length in the post's thread",
                    "m.relates_to": ["rel_type": "m.thread", "event_id": plan[n], "is_falling_back": true,
                                     "m.in_reply_to": ["event_id": plan[n]]],
                ]
                if (try? sendRetrying(repliers[n % 2], room: room, content: content)) == nil { failures.add() }
                if worker == 0, n % 5000 == 0 { FileHandle.standardError.write(Data("posts: ~\(n) replies sent\n".utf8)) }
            }
        }
        if failures.value > 0 { throw BenchmarkFailure("\(failures.value) replies could not be sent") }
        // The busiest post's newest reply, as the server orders them (the senders raced).
        let page = try sender.call("GET", "/_matrix/client/v1/rooms/\(MatrixTestClient.escape(room))/relations/"
            + "\(MatrixTestClient.escape(busiest))/m.thread", query: ["dir": "b", "limit": "1"])
        let newest = ((page["chunk"] as? [[String: Any]])?.first?["event_id"] as? String) ?? ""
        let filled = MatrixPostsRoom(room: room, reader: reader.userID, readerToken: reader.accessToken, readerPassword: reader.password,
                                     busiest: busiest, busiestNewest: newest, posts: posts, replies: replies,
                                     fillSeconds: Double(benchNow() - start) / 1e9)
        try JSONEncoder().encode(filled).write(to: record)
        return filled
    }
}

/// Sends under one transaction id, again after a failure (a loaded homeserver times out now
/// and then; the same id keeps a send that landed from landing twice); up to three times.
private func sendRetrying(_ sender: MatrixTestClient, room: String, content: [String: Any]) throws -> String {
    let txn = UUID().uuidString
    for attempt in 1...3 {
        do {
            return try sender.send(roomID: room, content: content, txnID: txn)
        } catch where attempt < 3 {
            Thread.sleep(forTimeInterval: 1)
        }
    }
    throw BenchmarkFailure("unreachable")
}

/// Event ids filled in by several senders at once.
private final class Roots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [String?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ id: String) { lock.withLock { slots[index] = id } }
    var ids: [String] { lock.withLock { slots.compactMap { $0 } } }
}
