import Foundation
import ThreadModel

/// A post's summary as the line under its root: `↳ 3 replies · Bob 5m ago · ● 2 new @1`.
///
/// The newest replier's name is hostile text: cut to `nameColumns` here and written through the
/// cell buffer, which shows controls and invisibles as placeholders as it does every name.
struct PostSummaryLine: Equatable {
    /// One piece of the line and how it is drawn.
    enum Kind: Equatable { case count, name, time, unread, mentions }

    let summary: PostSummary
    /// The newest replier's name, cut to `nameColumns`.
    let name: String

    /// The most columns the newest replier's name takes.
    static let nameColumns = 24

    init(_ summary: PostSummary) {
        self.summary = summary
        name = TextFit.cut(summary.latestName.isEmpty ? summary.latestAuthor : summary.latestName, to: Self.nameColumns)
    }

    /// The line's pieces at `now` (the time is relative, so it is worked out as it is drawn).
    func pieces(now: Date) -> [(text: String, kind: Kind)] {
        let count = summary.replyCount
        var pieces: [(String, Kind)] = [("↳ \(count) \(count == 1 ? "reply" : "replies") · ", .count), (name, .name),
                                        (" " + RelativeTime.text(for: summary.latestAt, now: now), .time)]
        if summary.isUnread {
            pieces.append((" · ● " + (summary.unreadCount > 0 ? "\(summary.unreadCount) new" : "new"), .unread))
        }
        if summary.mentionCount > 0 { pieces.append((" @\(summary.mentionCount)", .mentions)) }
        return pieces
    }

    /// The text of the line, as drawn (for tests).
    func text(now: Date) -> String { pieces(now: now).map(\.text).joined() }
}
