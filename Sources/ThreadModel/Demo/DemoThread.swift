import Foundation

/// The built-in demo thread: a post and a discussion that exercise what the client shows.
public enum DemoThread {
    /// The thread, with fixed ids and times so that it reads the same on every machine.
    public static func make() -> CommentThread {
        let start = Date(timeIntervalSince1970: 1_744_884_000)  // 2025-04-17T10:00:00Z
        var thread = CommentThread(
            id: "demo",
            title: "Scrolling like a phone, in a terminal",
            author: "u1",
            created: start,
            body: """
            We rebuilt the feed on a real scroll engine: momentum after a wheel burst, animated \
            jumps, and a header that collapses as you read and **snaps** when you stop. Try the \
            wheel, PageUp/PageDown, and Ctrl-Home. Type `@` in the composer to mention someone.
            """,
            users: users.map { User(id: $0.0, handle: $0.1, name: $0.2) }
        )
        for (index, entry) in comments.enumerated() {
            let created = start.addingTimeInterval(Double(index + 1) * 7 * 60)
            thread.append(Comment(
                id: "c\(index + 1)",
                author: entry.0,
                created: created,
                body: entry.1,
                edited: index % 7 == 3 ? created.addingTimeInterval(120) : nil
            ))
        }
        return thread
    }

    static let users: [(String, String, String)] = [
        ("u1", "tatiana", "Tatiana B."),
        ("u2", "marco", "Marco Rossi"),
        ("u3", "yuki", "山田 由紀"),
        ("u4", "amara", "Amara Okafor"),
        ("u5", "lin.wei", "林伟"),
        ("u6", "jonas_k", "Jonas Kühn"),
        ("u7", "priya", "Priya Raman"),
        ("u8", "noor", "Noor Haddad"),
        ("u9", "sam-dev", "Sam 🚀 Devlin"),
        ("u10", "olek", "Oleksandr Petrenko"),
        ("u11", "ines", "Inês Carvalho"),
        ("u12", "kofi", "Kofi Mensah"),
    ]

    static let comments: [(String, String)] = [
        ("u2", "This is great. The momentum feels *exactly* like the trackpad on my laptop."),
        ("u3", "日本語の折り返しも大丈夫ですね。全角文字が二列を使うのを確認しました。"),
        ("u4", "Does the header snap even when I stop halfway with the keyboard? @tatiana"),
        ("u1", "@amara yes: the end of a scroll is the move to idle, whatever started it. There is also the debounced mode from the talk, for comparison."),
        ("u5", "终端里的平滑滚动，太酷了！🎉"),
        ("u6", "Spoiler for the ending of the talk: ||the header snaps in one motion, not two||."),
        ("u7", "Long one, sorry. I tried this on a 200x50 terminal over ssh with 1,000,000 comments and it stayed smooth. The trick is that only the visible comments are laid out, and the heights of the others are estimated until they are measured, so the scrollbar doesn't jump. I also checked that resizing keeps my place: the anchor is a comment id plus a row inside it, so re-wrapping at a new width never loses where I was reading. Then I pasted a huge log into the composer and it was still instant."),
        ("u8", "مرحبا! Mixed scripts render in order, and bidi controls show up as placeholders instead of reordering the line."),
        ("u9", "Emoji check: 👍🏽 👨‍👩‍👧 🇫🇷 ❤️ 1️⃣ 🧑‍💻 — nothing shifts, whatever the terminal thinks of them."),
        ("u10", "Hostile input test: \u{1B}[31mred?\u{1B}[0m and a bell \u{07} and a backspace \u{08} — all shown, none obeyed."),
        ("u11", "`code spans` and **bold** and ~~strike~~ should all render once the Markdown lands."),
        ("u12", "Combining marks: e\u{301}\u{302}\u{303}\u{304}\u{305}\u{306} (capped so a cell never explodes)."),
        ("u2", "@yuki 素晴らしい！ How does it look in a narrow terminal?"),
        ("u3", "@marco 20 columns still works; below that you get a polite notice."),
        ("u4", "Ctrl-Z and fg restore the screen too. And Ctrl-C leaves my shell clean."),
        ("u7", "Mouse wheel over the mention list scrolls the list; over its transparent top it scrolls the feed. Very phone-like."),
        ("u6", "Drafts survive a crash, I killed it with -9 to check."),
        ("u1", "Thanks all! Keep the feedback coming."),
        ("u9", "One more: tabs\tand\ttabs should not break the layout."),
        ("u12", "Last comment of the demo. Scroll up to read from the start, or press Ctrl-Home."),
    ]
}
