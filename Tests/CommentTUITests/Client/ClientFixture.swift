@testable import CommentTUI
import CommentTUITestSupport
import Foundation
import ScrollEngine
import ThreadModel

/// A client with home over threads held in memory: each a `QueuedThreadSource` the test delivers
/// updates to, opened by an opener that runs on the test's thread (an opening ends when the
/// test takes updates, as the loop would when the opener's descriptor wakes it).
final class ClientFixture {
    let pilot: Pilot
    var client: CommentClient { pilot.client }
    /// Each thread's source once opened, and how many times each was opened (once, however
    /// often it is shown).
    private final class Openings {
        var sources: [ThreadKey: QueuedThreadSource] = [:]
        var counts: [ThreadKey: Int] = [:]
    }
    private let openings: Openings

    /// Threads titled `titles` (keys `.file(path: "/t/<title>")`), `comments` each, the first
    /// shown at start unless `startsAtHome`; summaries list them newest first in the given order.
    init(titles: [String], comments: Int = 30, startsAtHome: Bool = false, columns: Int = 50, rows: Int = 16,
         notifications: DesktopNotifications? = nil) throws {
        let fixtures = Dictionary(uniqueKeysWithValues: titles.map { title in
            var fixture = ThreadFixture.numbered(comments)
            fixture.thread.title = title
            return (Self.key(title), fixture)
        })
        let openings = Openings()
        self.openings = openings
        let opener = try ThreadOpener(inBackground: false) { key, _ in
            guard let fixture = fixtures[key] else { throw CommandFailure("no such thread") }
            let source = try QueuedThreadSource(thread: fixture.thread)
            openings.sources[key] = source
            openings.counts[key, default: 0] += 1
            return OpenCommand.Target(source: source, me: ThreadFixture.ann)
        }
        let summaries = titles.enumerated().map { n, title in
            ThreadSummary(key: Self.key(title), name: title, preview: "comment number \(comments)", author: "Bo",
                          activity: ThreadFixture.now.addingTimeInterval(Double(-60 * n)))
        }
        var start: OpenCommand.Target?
        if !startsAtHome, let first = titles.first { start = try opener.openNow(Self.key(first)) }
        var settings = CommentClient.SessionSettings()
        settings.notifications = notifications
        let client = CommentClient(columns: columns, rows: rows, settings: settings, start: start,
                                   startKey: startsAtHome ? nil : titles.first.map(Self.key), summaries: summaries, opener: opener,
                                   mailbox: try ClientMailbox())
        client.wallTime = ThreadFixture.now
        pilot = Pilot(client: client, screen: HeadlessScreen(columns: columns, rows: rows))
    }

    /// The source of an opened thread.
    func source(_ title: String) -> QueuedThreadSource? { openings.sources[Self.key(title)] }
    /// How many times a thread was opened.
    func openCount(_ title: String) -> Int { openings.counts[Self.key(title)] ?? 0 }

    static func key(_ title: String) -> ThreadKey { .file(path: "/t/\(title)") }

    /// Ctrl-K, the query, Enter; then what opened is taken.
    func switchTo(_ query: String) {
        pilot.press(KeyPress(.character("k"), .ctrl))
        pilot.type(query)
        pilot.press(.enter)
        pilot.takeUpdates()
    }
}

extension ThreadOpener {
    /// Opens a thread on the caller's thread, for a start (tests only).
    func openNow(_ key: ThreadKey) throws -> OpenCommand.Target {
        open(key)
        guard let opened = takeOpened().first(where: { $0.key == key }) else { throw CommandFailure("did not open") }
        return try opened.result.get()
    }
}
