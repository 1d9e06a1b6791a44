import Foundation
import ThreadModel

/// Posts started here that have no replies yet, as home lists them: `/threads` lists a root only
/// once it has a reply, so a root marked as a post (`MatrixPostMark`) seen in the room's
/// timeline (a sync answer, the first window, the home cache's copy of them) is listed from
/// there, under its room, until a page of `/threads` holds it (then that page's row is the one).
///
/// Other clients' roots with no replies stay unlisted: nothing tells them from any message.
extension MatrixAccountRoom {
    /// Notes the marked roots of a timeline (oldest first), a reply in one (its row shows the
    /// reply until `/threads` counts it) and a redaction of one by its sender or by someone
    /// the room's power levels let redact (it goes; with power levels not known, its sender's alone).
    mutating func noteMarkedPosts(in timeline: [JSONValue], limits: MatrixAccountRooms.Limits) {
        var marked = markedPosts ?? []
        // A hostile answer may hold any number of marked roots: looked up by id, and cut back to
        // the limit whenever twice the limit is held, so the work stays linear in the answer (a
        // redaction after a cut may then leave fewer than the limit: the older ones are forgotten).
        var roots = Set(marked.map(\.root))
        for event in timeline {
            if MatrixPostMark.isMarkedRoot(event) {
                guard let post = Self.markedPost(event, limits: limits), roots.insert(post.root).inserted else { continue }
                marked.append(post)
                if marked.count > 2 * limits.markedPosts {
                    marked = Self.newest(marked, limit: limits.markedPosts)
                    roots = Set(marked.map(\.root))
                }
            } else if let root = MatrixTimelineScope.threadRoot(of: event), roots.contains(root),
                      let at = marked.firstIndex(where: { $0.root == root }),
                      let sender = event["sender"]?.string, MatrixGrammar.isUserID(sender) {
                // Counted as the server counts it once `/threads` lists the post; until then one reply at least.
                marked[at].replies = max(marked[at].replies, 1)
                marked[at].latestSender = sender
                marked[at].latestBody = event["content"]?["body"]?.string.map { limits.cut($0, bytes: limits.previewBytes) }
                marked[at].activity = max(marked[at].activity, MatrixServerNumber.time(milliseconds: event["origin_server_ts"]))
            } else if event["type"]?.string == "m.room.redaction",
                      let redacted = event["redacts"]?.string ?? event["content"]?["redacts"]?.string, roots.contains(redacted),
                      let sender = event["sender"]?.string,
                      sender == marked.first(where: { $0.root == redacted })?.author || redactPower?.mayRedact(sender) == true {
                // Honoured as the server would: its sender's own, or one with the power to redact.
                roots.remove(redacted)
                marked.removeAll { $0.root == redacted }
            }
        }
        marked = Self.newest(marked, limit: limits.markedPosts)
        markedPosts = marked.isEmpty ? nil : marked
    }

    /// The `limit` most recently active of `posts`, newest first.
    private static func newest(_ posts: [MatrixRoomPosts.Post], limit: Int) -> [MatrixRoomPosts.Post] {
        Array(posts.sorted { $0.activity != $1.activity ? $0.activity > $1.activity : $0.root < $1.root }.prefix(limit))
    }

    /// A marked root as its row shows it; nil when its id or sender is not of their shape.
    private static func markedPost(_ event: JSONValue, limits: MatrixAccountRooms.Limits) -> MatrixRoomPosts.Post? {
        guard let id = event["event_id"]?.string, MatrixRoomAddress.isEventID(id),
              let sender = event["sender"]?.string, MatrixGrammar.isUserID(sender) else { return nil }
        let body = event["content"]?["body"]?.string ?? ""
        let title = MatrixRoomPosts.firstLine(MatrixPostMark.title(of: event) ?? body)
        return MatrixRoomPosts.Post(root: id, title: limits.cut(title.isEmpty ? "(post)" : title, bytes: limits.nameBytes), author: sender,
                                    replies: 0, latestSender: sender, latestBody: limits.cut(body, bytes: limits.previewBytes),
                                    activity: MatrixServerNumber.time(milliseconds: event["origin_server_ts"]))
    }

    /// A page of `/threads` came: the roots it holds are its rows now, and a marked root with a
    /// reply is the server's to list (one past the page is among those it counts).
    mutating func forgetMarkedPosts(listedIn page: MatrixRoomPosts) {
        let listed = Set(page.pageRoots ?? page.posts.map(\.root))
        markedPosts?.removeAll { listed.contains($0.root) || $0.replies > 0 }
        if markedPosts?.isEmpty == true { markedPosts = nil }
    }

    /// The room's post rows' posts: the newest of `/threads`' page and of the marked roots it
    /// does not hold, at most `MatrixRoomPosts.shown`, and how many more there are.
    var listedPosts: (posts: [MatrixRoomPosts.Post], more: Int, moreBeyond: Bool) {
        let listed = Set(posts?.pageRoots ?? posts?.posts.map(\.root) ?? [])
        let marked = (markedPosts ?? []).filter { !listed.contains($0.root) }
        guard !marked.isEmpty else { return (posts?.posts ?? [], posts?.more ?? 0, posts?.moreBeyond ?? false) }
        let all = ((posts?.posts ?? []) + marked).sorted { $0.activity != $1.activity ? $0.activity > $1.activity : $0.root < $1.root }
        let shown = Array(all.prefix(MatrixRoomPosts.shown))
        return (shown, (posts?.more ?? 0) + all.count - shown.count, posts?.moreBeyond ?? false)
    }
}
