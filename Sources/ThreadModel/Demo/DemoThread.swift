import Foundation

/// The built-in demo thread: a post and a discussion that exercise what the client shows.
public enum DemoThread {
    /// The demo thread's title, as home lists it before the thread is opened.
    public static let title = "Scrolling like a phone, in a terminal"

    /// The thread, with fixed ids and times so that it reads the same on every machine.
    static func make() -> CommentThread {
        let start = Date(timeIntervalSince1970: 1_744_884_000)  // 2025-04-17T10:00:00Z
        var thread = CommentThread(
            id: "demo",
            title: title,
            author: "u1",
            created: start,
            body: body,
            users: users.map { User(id: $0.0, handle: $0.1, name: $0.2) }
        )
        for (index, entry) in comments.enumerated() {
            let created = start.addingTimeInterval(Double(index + 1) * 7 * 60)
            thread.append(Comment(
                id: "c\(index + 1)",
                author: entry.0,
                created: created,
                body: entry.1,
                // A few are edited, among them the one that says so.
                edited: index % 7 == 3 || entry.1.hasPrefix("Edited") ? created.addingTimeInterval(120) : nil
            ))
        }
        return thread
    }

    /// Where the demo file lives: `$XDG_DATA_HOME/comment-tui/demo.jsonl`, else
    /// `~/.local/share/comment-tui/demo.jsonl`; nil when neither variable is set.
    public static func filePath(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/comment-tui/demo.jsonl"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/share/comment-tui/demo.jsonl"
    }

    /// Writes the demo file at a path unless it exists already (a file being used is never
    /// replaced). It is the client's own file, in the client's own folder: a link, a FIFO or
    /// another user's file planted in its place is refused, never followed.
    public static func install(at path: String) throws {
        let folder = try PrivateDirectory((path as NSString).deletingLastPathComponent)
        guard try !folder.contains((path as NSString).lastPathComponent) else { return }
        do {
            try ThreadFileWriter(path: path).create(ThreadRecord.records(of: make()))
        } catch let error as SystemError where error.isAlreadyExists {
            return  // another first run got there first: its file is the same demo
        }
    }
}
