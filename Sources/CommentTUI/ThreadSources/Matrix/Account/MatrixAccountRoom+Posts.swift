import Foundation

/// A room's posts (Matrix threads) as home counts them: the server's unread and mention counts
/// per root (`unread_thread_notifications`, which the account's filter asks for).
extension MatrixAccountRoom {
    /// One post's unread counts.
    struct PostCounts: Codable, Equatable, Sendable {
        var unread: Int
        var highlights: Int
    }

    /// Takes the posts' counts of an answer holding the room's counts (absent: none unread),
    /// at most `most` of them (the most mentions, then the most unread), and adds them to the
    /// room's own, which are its main timeline's alone when the server counts posts apart.
    mutating func notePostCounts(_ value: JSONValue?, most: Int) {
        var posts: [String: PostCounts] = [:]
        for (root, counts) in value?.object ?? [:] where root.hasPrefix("$") && root.utf8.count <= 255 {
            let unread = MatrixAccountRooms.count(counts["notification_count"]) ?? 0
            let highlights = MatrixAccountRooms.count(counts["highlight_count"]) ?? 0
            if unread > 0 || highlights > 0 { posts[root] = PostCounts(unread: unread, highlights: highlights) }
        }
        for post in posts.values {
            unread = min(unread + post.unread, 1_000_000_000)
            highlights = min(highlights + post.highlights, 1_000_000_000)
        }
        let kept = posts.sorted { a, b in
            a.value.highlights != b.value.highlights ? a.value.highlights > b.value.highlights
                : a.value.unread != b.value.unread ? a.value.unread > b.value.unread : a.key < b.key
        }.prefix(most)
        postCounts = kept.isEmpty ? nil : Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}
