import Foundation
import ThreadModel

/// A room's posts (Matrix threads) as home counts them: the server's unread and mention counts
/// per root (`unread_thread_notifications`, which the account's filter asks for).
extension MatrixAccountRoom {
    /// One post's unread counts.
    struct PostCounts: Codable, Equatable, Sendable {
        var unread: Int
        var highlights: Int
    }

    /// Takes the posts' counts of an answer holding the room's counts (absent: none unread),
    /// at most `most` of them (the most mentions, then the most unread), and their sum apart
    /// from the room's own (its main timeline's alone when the server counts posts apart): the
    /// row adds them (`rowUnread`), so an answer leaving the room's count out never adds twice.
    mutating func notePostCounts(_ value: JSONValue?, most: Int) {
        var posts: [String: PostCounts] = [:]
        for (root, counts) in value?.object ?? [:] where root.hasPrefix("$") && root.utf8.count <= 255 {
            let unread = MatrixAccountRooms.count(counts["notification_count"]) ?? 0
            let highlights = MatrixAccountRooms.count(counts["highlight_count"]) ?? 0
            if unread > 0 || highlights > 0 { posts[root] = PostCounts(unread: unread, highlights: highlights) }
        }
        var total = PostCounts(unread: 0, highlights: 0)
        for post in posts.values {
            total.unread = min(total.unread + post.unread, 1_000_000_000)
            total.highlights = min(total.highlights + post.highlights, 1_000_000_000)
        }
        postsTotal = total.unread == 0 && total.highlights == 0 ? nil : total
        let kept = posts.sorted { a, b in
            a.value.highlights != b.value.highlights ? a.value.highlights > b.value.highlights
                : a.value.unread != b.value.unread ? a.value.unread > b.value.unread : a.key < b.key
        }.prefix(most)
        postCounts = kept.isEmpty ? nil : Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    /// The row's unread and mention counts: the main timeline's and its posts'.
    var rowCounts: (unread: Int, highlights: Int) {
        (min(unread + (postsTotal?.unread ?? 0), 1_000_000_000), min(highlights + (postsTotal?.highlights ?? 0), 1_000_000_000))
    }
}

extension MatrixAccountRooms {
    /// The rooms of a sync answer whose posts changed: a reply in a thread, or a new root
    /// of one, came in their timeline.
    static func roomsWithThreadActivity(in answer: JSONValue) -> [String] {
        (answer["rooms"]?["join"]?.object ?? [:]).compactMap { roomID, entry in
            (entry["timeline"]?["events"]?.array ?? []).contains { MatrixTimelineScope.threadRoot(of: $0) != nil } ? roomID : nil
        }.sorted()
    }

    /// The rooms whose posts to ask for after an answer: on the first (the initial sync, where
    /// every room looks active), the newest `most` alone; later, those whose posts moved.
    func roomsWantingPosts(after answer: JSONValue, isFirst: Bool, most: Int) -> [String] {
        isFirst ? newestJoinedRooms(most) : Self.roomsWithThreadActivity(in: answer)
    }

    /// The joined rooms, newest activity first, at most `most` (whose posts a start asks for).
    func newestJoinedRooms(_ most: Int) -> [String] {
        summaries.compactMap { summary -> String? in
            guard case .room(_, let roomID) = summary.key, rooms[roomID]?.membership == .join else { return nil }
            return roomID
        }.prefix(most).map { $0 }
    }

    /// A room's posts as home rows: the newest few (of `/threads` and the roots marked as posts
    /// seen since), each with its unread and mention counts (the server's per post), the last
    /// saying how many more there are.
    func postSummaries(roomID: String, room: MatrixAccountRoom) -> [ThreadSummary] {
        guard room.membership == .join else { return [] }
        let listed = room.listedPosts
        var rows = listed.posts.map { post in
            var row = ThreadSummary(
                key: .post(account: account, roomID: roomID, root: post.root), name: post.title,
                preview: post.latestBody, author: room.displayName(of: post.latestSender), activity: post.activity,
                unread: room.postCounts?[post.root]?.unread ?? 0, highlights: room.postCounts?[post.root]?.highlights ?? 0,
                isEncrypted: room.isEncrypted, isDirect: directRooms.contains(roomID), isPrivate: room.joinRule != "public")
            row.replies = post.replies
            return row
        }
        if !rows.isEmpty, listed.more > 0 || listed.moreBeyond {
            rows[rows.count - 1].morePosts = listed.moreBeyond ? "\(listed.more)+" : "\(listed.more)"
        }
        return rows
    }
}
