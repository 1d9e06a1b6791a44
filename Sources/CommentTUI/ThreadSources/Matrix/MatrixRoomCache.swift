import Foundation
import ThreadModel

/// A room's newest page kept on this machine, so the room opens at once (and offline) and
/// catches up from where it left: `$XDG_CACHE_HOME/comment-tui/matrix/<account and room>.jsonl`.
///
/// JSON Lines: a `room` record (ids, tokens, the header, the read marker), then `user` and
/// `comment` records, a comment's reactions in an optional field of its record (so a build that
/// does not know them reads the copy). A record of a type this build does not know (written by
/// a newer one) is skipped. Written whole to a temporary file and renamed, so a reader sees the
/// old snapshot or the new one; a file that does not read is moved aside (`.broken-N`) and
/// rebuilt, never trusted half-way.
struct MatrixRoomCache {
    /// What a snapshot holds.
    struct Snapshot: Equatable, Sendable {
        var roomID: String
        var label: String
        var header: ThreadHeader
        var postEventID: String?
        var users: [User]
        /// The newest comments, oldest first, edits applied.
        var comments: [Comment]
        /// Where the page before `comments` starts; nil at the room's start.
        var olderToken: String?
        var nextBatch: String
        var fullyRead: String?
        /// Whether the room has end-to-end encryption switched on (nothing is sent to it).
        var isEncrypted = false
        /// The comments that are rows in place of what cannot be shown (`MatrixTimeline.placeholders`).
        var placeholders: Set<String> = []
        /// The reactions to the kept comments, by reaction event id (a redaction can still take one away).
        var reactions: [String: MatrixReactions.Reaction] = [:]
        /// The posts the kept comments are the roots of, by root (`MatrixThreadSummaries`).
        var posts: [String: MatrixThreadSummaries.Entry] = [:]
    }

    private struct RoomRecord: Codable {
        var type = "room"
        var room: String
        var label: String
        var title: String
        var author: String
        var created: Date
        var body: String
        var post: String?
        var older: String?
        var nextBatch: String
        var fullyRead: String?
        /// Written only when true; a copy from before it was kept reads as false.
        var encrypted: Bool?
        /// Always true from the build that marks redacted comments (`deleted`): a copy without it
        /// is older, and its redacted comments are told by their body (`MatrixRoomCache+Deleted`).
        var marksDeleted: Bool?
        enum CodingKeys: String, CodingKey {
            case type, room, label, title, author, created, body, post, older, nextBatch = "next_batch", fullyRead = "fully_read", encrypted
            case marksDeleted = "marks_deleted"
        }
    }

    private struct UserRecord: Codable {
        var type = "user"
        var id: String
        var handle: String
        var name: String
    }

    private struct CommentRecord: Codable {
        var type = "comment"
        var id: String
        var author: String
        var created: Date
        var body: String
        var edited: Date?
        /// The event it replies to (absent in copies written before replies were kept).
        var replyTo: String?
        /// Written only when true: a row in place of an encrypted event.
        var placeholder: Bool?
        /// Written only when true: redacted (its body the deleted one's).
        var deleted: Bool?
        /// Its reactions, by reaction event id order; written only when there are some.
        var reactions: [CommentReaction]?
        /// The post it is the root of (a Matrix thread): written only when it has replies.
        var thread: PostRecord?
    }

    /// A post's summary in its root's record.
    private struct PostRecord: Codable {
        var count: Int
        var latest: String?
        var sender: String
        var created: Date
    }

    /// A reaction in its comment's record (`m.reaction`).
    private struct CommentReaction: Codable {
        var id: String
        var key: String
        var sender: String
        var created: Date
    }

    /// A reaction record, as builds before reactions moved into the comment record wrote them.
    private struct ReactionRecord: Codable {
        var type = "reaction"
        var id: String
        var target: String
        var key: String
        var sender: String
        var created: Date
    }

    private struct Kind: Decodable { var type: String }

    /// How many comments a snapshot keeps: several screens, a small file.
    static let keptComments = 200

    /// The folder of the account's room caches (a `PrivateDirectory`) and this room's file in it.
    let directory: String
    let name: String

    /// The cache file.
    var path: String { "\(directory)/\(name)" }

    /// The cache of `address` for account `me`, in `$XDG_CACHE_HOME` (else `~/.cache`); nil when neither is set.
    init?(me: String, address: MatrixRoomAddress, environment: [String: String]) {
        guard let directory = Self.directory(environment: environment) else { return nil }
        // A post's copy is its own, by room and root: its comments are not the room's.
        let post = address.postRoot.map { "/" + $0 } ?? ""
        let stem = ThreadStateFiles.stem(key: "matrix:\(me):\(address.identifier)\(post)", name: address.identifier + post)
        self.directory = directory
        name = "\(stem).jsonl"
    }

    /// Where Matrix's offline copies live: `$XDG_CACHE_HOME/comment-tui/matrix` (else
    /// `~/.cache/…`); nil when neither is set.
    static func directory(environment: [String: String]) -> String? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/comment-tui/matrix" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/comment-tui/matrix" }
        return nil
    }

    /// The snapshot, if there is one that reads; one that does not is moved aside.
    /// Anything but a regular file of the user's there (a planted link) is moved aside unread.
    func load() -> Snapshot? {
        guard FileManager.default.fileExists(atPath: directory), let folder = try? PrivateDirectory(directory) else { return nil }
        do {
            guard let bytes = try folder.read(name) else { return nil }
            if let snapshot = Self.decode(Data(bytes)) { return snapshot }
        } catch {}
        _ = try? folder.setAside(name)
        return nil
    }

    private static func decode(_ data: Data) -> Snapshot? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        var snapshot: Snapshot?
        var marksDeleted = false
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let bytes = Data(line)
            guard let kind = try? decoder.decode(Kind.self, from: bytes) else { return nil }
            switch kind.type {
            case "room" where snapshot == nil:
                guard let room = try? decoder.decode(RoomRecord.self, from: bytes) else { return nil }
                marksDeleted = room.marksDeleted == true
                snapshot = Snapshot(roomID: room.room, label: room.label,
                                    header: ThreadHeader(id: room.room, title: room.title, author: room.author, created: room.created, body: room.body),
                                    postEventID: room.post, users: [], comments: [], olderToken: room.older,
                                    nextBatch: room.nextBatch, fullyRead: room.fullyRead, isEncrypted: room.encrypted == true)
            case "user" where snapshot != nil:
                guard let user = try? decoder.decode(UserRecord.self, from: bytes) else { return nil }
                snapshot?.users.append(User(id: user.id, handle: user.handle, name: user.name))
            case "comment" where snapshot != nil:
                guard let c = try? decoder.decode(CommentRecord.self, from: bytes) else { return nil }
                snapshot?.comments.append(Comment(id: c.id, author: c.author, created: c.created, body: c.body, edited: c.edited,
                                                         replyTo: c.replyTo,
                                                         isDeleted: c.deleted == true || (!marksDeleted && Self.isOlderCopysDeleted(c.body, edited: c.edited))))
                if c.placeholder == true { snapshot?.placeholders.insert(c.id) }
                if let p = c.thread {
                    snapshot?.posts[c.id] = MatrixThreadSummaries.Entry(count: min(max(p.count, 0), MatrixThreadSummaries.mostReplies),
                                                                        latestEventID: p.latest, latestSender: p.sender, latestAt: p.created)
                }
                for r in c.reactions ?? [] {
                    snapshot?.reactions[r.id] = MatrixReactions.Reaction(target: c.id, key: r.key, sender: r.sender, at: r.created)
                }
            case "reaction" where snapshot != nil:
                guard let r = try? decoder.decode(ReactionRecord.self, from: bytes) else { return nil }
                snapshot?.reactions[r.id] = MatrixReactions.Reaction(target: r.target, key: r.key, sender: r.sender, at: r.created)
            case "room", "user", "comment", "reaction":
                return nil // out of place
            default:
                continue // a newer build's record: what it adds is not known here
            }
        }
        return snapshot
    }

    /// Replaces the snapshot (atomically).
    func save(_ snapshot: Snapshot) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = snapshot.header
        var out = try encoder.encode(RoomRecord(
            room: snapshot.roomID, label: snapshot.label, title: header.title, author: header.author, created: header.created,
            body: header.body, post: snapshot.postEventID, older: snapshot.olderToken, nextBatch: snapshot.nextBatch,
            fullyRead: snapshot.fullyRead, encrypted: snapshot.isEncrypted ? true : nil, marksDeleted: true)) + Data("\n".utf8)
        for user in snapshot.users {
            out += try encoder.encode(UserRecord(id: user.id, handle: user.handle, name: user.name)) + Data("\n".utf8)
        }
        let kept = snapshot.comments.suffix(Self.keptComments)
        let keptIDs = Set(kept.map(\.id))
        var reactions: [String: [CommentReaction]] = [:]
        for (id, r) in snapshot.reactions.sorted(by: { $0.key < $1.key }) where keptIDs.contains(r.target) {
            reactions[r.target, default: []].append(CommentReaction(id: id, key: r.key, sender: r.sender, created: r.at))
        }
        for c in kept {
            out += try encoder.encode(CommentRecord(id: c.id, author: c.author, created: c.created, body: c.body, edited: c.edited,
                                                            replyTo: c.replyTo,
                                                            placeholder: snapshot.placeholders.contains(c.id) ? true : nil,
                                                            deleted: c.isDeleted ? true : nil,
                                                            reactions: reactions[c.id],
                                                            thread: snapshot.posts[c.id].flatMap {
                                                                $0.count > 0 ? PostRecord(count: $0.count, latest: $0.latestEventID, sender: $0.latestSender,
                                                                                          created: $0.latestAt) : nil
                                                            })) + Data("\n".utf8)
        }
        // A copy that can be rebuilt: not fsynced, but never seen half-written.
        try PrivateDirectory(directory).replace(name, with: Array(out), synchronized: false)
    }
}
