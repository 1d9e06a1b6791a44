import Foundation
import ThreadModel

/// The newest posts (Matrix threads) of one room as home lists them under the room: read from a
/// page of `GET /v1/rooms/{r}/threads` (roots, newest activity first, each with its bundled
/// `m.thread` aggregation), bounded: a room with a thousand posts lists its newest few and says
/// how many more the page held.
///
/// Everything in it came from a homeserver: titles and previews are cut to the room limits'
/// bytes, counts clamped, ids checked; a view escapes what it draws.
struct MatrixRoomPosts: Codable, Equatable, Sendable {
    /// One post as its row shows it.
    struct Post: Codable, Equatable, Sendable {
        var root: String
        /// The root's text, its first line (the row's name).
        var title: String
        var author: String
        /// Replies, and the newest's author, text and time (the root's own when it has none).
        var replies: Int
        var latestSender: String
        var latestBody: String?
        var activity: Date
    }

    /// Posts listed per room.
    static let shown = 3
    /// Roots asked for per room: the newest are shown, the rest counted.
    static let asked = 50

    var posts: [Post] = []
    /// Posts past those shown that the page held.
    var more = 0
    /// Whether the server has more past the page (then `more` is at least that).
    var moreBeyond = false
    /// Every root the page held, shown or counted (nil in copies from before they were kept):
    /// a post marked here and seen in the timeline is listed once (`MatrixAccountRoom+MarkedPosts`).
    var pageRoots: [String]?

    /// The posts of a page of roots; `next` is the page's `next_batch`.
    init(roots: [JSONValue], next: String?, limits: MatrixAccountRooms.Limits) {
        var read: [Post] = []
        for root in roots.prefix(Self.asked) {
            guard let id = root["event_id"]?.string, id.hasPrefix("$"), id.utf8.count <= 255,
                  let sender = root["sender"]?.string, MatrixGrammar.isUserID(sender) else { continue }
            let bundle = root["unsigned"]?["m.relations"]?["m.thread"]
            let latest = bundle?["latest_event"]
            let latestSender = latest?["sender"]?.string.flatMap { MatrixGrammar.isUserID($0) ? $0 : nil }
            let title = Self.firstLine(root["content"]?["body"]?.string ?? "")
            read.append(Post(root: id, title: limits.cut(title.isEmpty ? "(post)" : title, bytes: limits.nameBytes), author: sender,
                             replies: MatrixThreadSummaries.count(bundle?["count"]) ?? 0,
                             latestSender: latestSender ?? sender,
                             latestBody: (latestSender != nil ? latest : root)?["content"]?["body"]?.string.map { limits.cut($0, bytes: limits.previewBytes) },
                             activity: MatrixServerNumber.time(milliseconds: (latestSender != nil ? latest : root)?["origin_server_ts"])))
        }
        // Newest activity first, as the server lists them (a hostile order is put right).
        read.sort { $0.activity != $1.activity ? $0.activity > $1.activity : $0.root < $1.root }
        posts = Array(read.prefix(Self.shown))
        pageRoots = read.map(\.root)
        more = read.count - posts.count
        moreBeyond = next != nil
    }

    /// The first line of a text, without the whitespace around it.
    static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) } ?? ""
        return line.trimmingCharacters(in: .whitespaces)
    }
}
