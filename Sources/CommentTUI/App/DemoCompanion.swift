import Foundation
import ScrollEngine
import ThreadModel

/// Someone in the demo thread who answers the newcomer: a moment after each comment they send,
/// a reply that mentions them arrives through the thread file like any other writer's, so the
/// demo shows comments coming in (with their transition, a mention's glow and the bell).
public struct DemoCompanion {
    /// Who answers: a user of the demo thread.
    let author: User
    /// How long after a sent comment the answer comes.
    static let delay = 1.5
    private var due: [ScrollInstant] = []
    private var answered = 0

    /// The demo's companion, if the thread has its user.
    public init?(thread: CommentThread) {
        guard let yuki = thread.user(handle: "yuki") else { return nil }
        author = yuki
    }

    /// The reader sent a comment at `time`: an answer is due a moment later.
    mutating func heard(at time: ScrollInstant) { due.append(time + Self.delay) }

    /// When the next answer is due, if one is.
    var nextDeadline: ScrollInstant? { due.first }

    /// The answers due by `time`, for `reader`, stamped `now`; they are then no longer due.
    mutating func answers(dueBy time: ScrollInstant, to reader: User, now: Date) -> [Comment] {
        let ready = due.prefix { $0 <= time }.count
        due.removeFirst(ready)
        return (0..<ready).map { _ in
            defer { answered += 1 }
            let body = Self.answers[answered % Self.answers.count].replacingOccurrences(of: "@reader", with: "@" + reader.handle)
            return Comment(id: ThreadFileWriter.newCommentID(), author: author.id, created: now, body: body)
        }
    }

    static let answers = [
        "@reader welcome! A comment that arrives while you read the newest comes in like this one. "
            + "Click the grey cells for a secret: ||spoilers dissolve when revealed||.",
        "@reader Japanese gets its readings above the line: {東京|とうきょう} and {漢字|かんじ}. "
            + "Alt-U jumps to the first unread comment, and its header flashes so you find it.",
        "@reader if the motion bothers you, start with `--reduce-motion`: every effect shows its end at once.",
    ]
}
