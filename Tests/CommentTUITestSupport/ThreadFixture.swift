import CommentTUI
import Foundation
import ThreadModel

/// Builds the threads tests open: a header, users and comments, then an app over them in memory.
///
///     let (app, screen) = ThreadFixture.numbered(20).open(columns: 40, rows: 12)
public struct ThreadFixture {
    /// When the fixture threads were written.
    public static let start = Date(timeIntervalSince1970: 1_744_884_000)
    /// "Now" for app tests: a month after the threads, so headers show plain dates.
    public static let now = start.addingTimeInterval(30 * 86_400)
    /// The two users of the numbered thread; ann is the reader unless another is chosen.
    public static let ann = User(id: "u1", handle: "ann", name: "Ann")
    public static let bo = User(id: "u2", handle: "bo", name: "Bo 日本")
    /// A third user, who reads a thread the other two wrote (none of its comments is theirs).
    public static let cy = User(id: "u3", handle: "cy", name: "Cy")

    /// The thread: header, users, comments.
    public var thread: CommentThread
    /// Comments before `thread.comments` (a big thread's index), if any.
    public var store: CommentStore?
    /// The reader's user id.
    public var me: String
    /// The thread's name in the status bar.
    public var label = "test"

    /// A thread with a title and users, no comments yet; the first user reads it.
    public init(title: String, body: String = "", users: [User]) {
        thread = CommentThread(id: "t", title: title, author: users[0].id, created: Self.start, body: body, users: users)
        me = users[0].id
    }

    /// A small thread with a hostile title, ann and bo, and comments "comment number 1…count",
    /// a minute apart, by bo and ann in turn.
    public static func numbered(_ count: Int = 3, body: String = "") -> ThreadFixture {
        var fixture = ThreadFixture(title: "Hello \u{1B}[2Jworld", body: body, users: [ann, bo])
        for i in 1...max(1, count) {
            fixture.add(Comment(id: "c\(i)", author: i % 2 == 0 ? ann.id : bo.id,
                                created: start.addingTimeInterval(Double(i) * 60), body: "comment number \(i)"))
        }
        return fixture
    }

    /// The same thread read by `reader`, who joins it.
    public func read(by reader: User) -> ThreadFixture {
        var copy = self
        copy.thread.add(reader)
        copy.me = reader.id
        return copy
    }

    /// Adds a comment.
    public mutating func add(_ comment: Comment) { thread.append(comment) }

    /// Adds comments with these bodies by `author`, ids `c0`, `c1`… after those already there.
    public func adding(_ bodies: [String], by author: String) -> ThreadFixture {
        var fixture = self
        let first = thread.comments.count
        for (n, body) in bodies.enumerated() {
            fixture.add(Comment(id: "c\(first + n)", author: author, created: Self.start, body: body))
        }
        return fixture
    }

    /// The same thread read by another of its users.
    public func read(by userID: String) -> ThreadFixture {
        var fixture = self
        fixture.me = userID
        return fixture
    }

    /// The thread held by an in-memory source.
    public var source: InMemoryThreadSource { InMemoryThreadSource(thread: thread, store: store, label: label) }

    /// An app over the thread at this size, its wall clock at `now`, with a headless screen.
    public func open(columns: Int = 40, rows: Int = 12) -> (CommentApp, HeadlessScreen) {
        let app = CommentApp(source: source, me: thread.user(id: me)!, columns: columns, rows: rows)
        app.wallTime = Self.now
        return (app, HeadlessScreen(columns: columns, rows: rows))
    }

    /// A pilot driving an app over the thread, its first frame drawn.
    public func pilot(columns: Int = 40, rows: Int = 12) -> Pilot {
        let (app, screen) = open(columns: columns, rows: rows)
        return Pilot(app: app, screen: screen)
    }

    /// A pilot over the thread held by a queued source with older pages to ask for, Ann reading,
    /// the wall clock at `now`; the test delivers what the source would report.
    public func queuedPilot(columns: Int, rows: Int) throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: thread, hasOlder: true)
        let app = CommentApp(source: source, me: Self.ann, columns: columns, rows: rows)
        app.wallTime = Self.now
        return (Pilot(app: app, screen: HeadlessScreen(columns: columns, rows: rows)), source)
    }
}
