/// A room's posts listed under the room: rooms and files newest activity first, each room's
/// posts right after it, newest first; a post whose room is not listed is not either.
extension HomeList {
    /// The threads in home's order with every post under its room.
    static func grouped(_ summaries: [ThreadSummary]) -> [ThreadSummary] {
        var posts: [ThreadKey: [ThreadSummary]] = [:]
        var threads: [ThreadSummary] = []
        for summary in summaries {
            if let room = summary.key.postRoom { posts[room, default: []].append(summary) } else { threads.append(summary) }
        }
        guard !posts.isEmpty else { return threads.sorted(by: inOrder) }
        return threads.sorted(by: inOrder).flatMap { [$0] + (posts[$0.key]?.sorted(by: inOrder) ?? []) }
    }
}
