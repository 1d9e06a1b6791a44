extension DemoThread {
    /// The post: long enough that the header is worth collapsing.
    static let body = """
    We rebuilt the feed on a real scroll engine: momentum after a wheel burst, animated \
    jumps, and a header that collapses as you read and **snaps** when you stop. Try the \
    wheel, PageUp/PageDown, and Ctrl-Home. Type `@` in the composer to mention someone.

    What to look at:
    - *Markdown*: **bold**, *italics*, `code`, ~~strike~~, [links](https://example.com/comment-tui) \
    and fenced code blocks.
    - Spoilers written `||like this||` stay hidden until you reveal them.
    - Mentions such as @marco and @yuki, CJK text (日本語、中文、한국어) and emoji 🎉 that never \
    shift a column.

    Everything here is a plain file: `comment-tui check` reads it, `comment-tui post` appends to it, \
    and two people posting at once never lose a comment.
    """

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
        ("u13", "hana.k", "김하나"),
        ("u14", "mateo", "Mateo García"),
        ("u15", "elif", "Elif Yılmaz"),
        ("u16", "arjun", "Arjun Mehta"),
        ("u17", "sofia_m", "Sofía Martínez"),
        ("u18", "dmitri", "Дмитрий Смирнов"),
        ("u19", "chloe", "Chloé Dubois"),
        ("u20", "tomasz", "Tomasz Nowak"),
        ("u21", "aiko", "佐藤 愛子"),
        ("u22", "femi", "Femi Adeyemi"),
        ("u23", "lucas.b", "Lucas Brandão"),
        ("u24", "zeynep", "Zeynep Demir"),
        ("u25", "nikos", "Νίκος Παπαδόπουλος"),
        ("u26", "maya", "Maya Cohen"),
        ("u27", "ravi_s", "Ravi Shankar"),
        ("u28", "greta", "Greta Lindqvist"),
        ("u29", "chen.yu", "陈宇"),
        ("u30", "bao", "Nguyễn Bảo"),
        ("u31", "astrid", "Astrid 🌲 Berg"),
        ("u32", "kwame", "Kwame Asante"),
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
        ("u13", "한국어도 잘 나오네요! 줄바꿈이 글자 단위로 되는 것도 좋아요. @yuki 日本語と同じですね。"),
        ("u14", "Quick question: does `comment-tui post` work from a cron job? I want a daily standup bot."),
        ("u1", "@mateo yes: `echo 'Standup at 10' | comment-tui post team.jsonl --as bot --name 'Standup Bot'`. It refuses to wait on a terminal, so a script never hangs."),
        ("u15", "Türkçe karakterler de sorunsuz: ğüşıöç İĞÜŞ. 👏"),
        ("u16", """
        A small **benchmark** from my machine:

        ```
        comments   first frame   page down
        1,000      4 ms          0.3 ms
        100,000    5 ms          0.3 ms
        ```

        Only the visible rows are laid out, so the size of the thread barely matters.
        """),
        ("u17", "¡Me encanta! The *collapsing header* is my favourite part. ||I scrolled up and down for ten minutes just to watch it snap.||"),
        ("u18", "Кириллица тоже работает. Проверил длинные слова: переподготовка, достопримечательность."),
        ("u19", "@tatiana is there a way to jump to the first unread comment? The status bar says `3 new` but I lost track."),
        ("u1", "@chloe Alt-U jumps to the first unread comment, and End (or Ctrl-End) to the newest; the counter resets once you've seen them."),
        ("u20", "Tried a 4-space indent in a list:\n\n- one\n    - nested\n- two\n\nand it wrapped fine."),
        ("u21", "このスレッド、{読|よ}みやすいです。🍣🍜🍱 {絵文字|えもじ}の{幅|はば}もぴったり。{振|ふ}り{仮名|がな}は `{漢字|かんじ}` と書きます。"),
        ("u22", "Links should show their real target when the text lies: [totally-safe.example](https://evil.example/phish)."),
        ("u23", "Boa! Testei com acentuação: ação, coração, pão, órgão. Tudo certo. ✅"),
        ("u24", "||Spoiler:|| the last comment is by @kofi. ||Second spoiler in the same line, hidden separately.||"),
        ("u25", "Ελληνικά: Καλημέρα σε όλους! Η κύλιση είναι πολύ ομαλή."),
        ("u26", "I pasted a 300-line stack trace into the composer to see what happens. It scrolled inside the composer and the feed stayed put. Then one Ctrl-_ undid the paste and nothing lagged."),
        ("u27", "@priya your 1,000,000 comment test — was that with `comment-tui generate --comments 1000000 --users 500`? Curious how long generating took."),
        ("u7", "@ravi_s yes, a few seconds to generate; it streams straight to the file."),
        ("u28", "Hej! Åäö works, and so does a very long word: Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen."),
        ("u29", "中文长句测试：这是一个很长的句子，用来检查在窄终端里自动换行的时候是否会把汉字切成两半，结果完全没有问题。👍"),
        ("u30", "Tiếng Việt có dấu: Xin chào, cảm ơn các bạn rất nhiều! 🇻🇳"),
        ("u31", "Nordic greetings 🌲🌲🌲. I use it over mosh on a train and the momentum still feels right."),
        ("u32", "Feature request: **reactions**. A 👍 without writing a whole comment."),
        ("u2", "@kwame +1 for reactions, but the file format already ignores record types it doesn't know, so they can be added later without breaking old clients."),
        ("u4", "Edited this comment to check the *edited* marker shows up. It does."),
        ("u5", "@lin.wei 你好 — oh wait, that's me. Mentions of yourself are highlighted differently, nice touch."),
        ("u8", "Right-to-left test: שלום עולם and مرحبا بالعالم in one line."),
        ("u10", "Zero-width tricks: a\u{200B}b, bidi override \u{202E}desrever\u{202C}, and soft hyphen co\u{00AD}op. All visible, none sneaky."),
        ("u11", """
        Checklist from the release notes:

        1. Thread files are JSON Lines.
        2. `check` reports every problem with its line.
        3. Appends are locked and `fsync`ed.
        4. Nothing ever rewrites the file.
        """),
        ("u3", "@hana.k 本当ですね！CJKの折り返しはとても自然です。"),
        ("u6", "`git blame` says the scroll engine is 2,000 lines with tests. Worth reading, especially the momentum part."),
        ("u9", "🚀🚀🚀 shipping it"),
        ("u12", "Short one."),
        ("u14", "Another ||spoiler|| with a mention inside: ||@tatiana did it||."),
        ("u16", "Code in a comment: `let x = thread.comments.filter { $0.author == me.id }` stays on one line when it fits."),
        ("u19", "Merci pour tout ! À bientôt. 🥐"),
        ("u22", "Markdown headings should render as bold lines:\n\n# Heading one\n## Heading two\n\nand a > quote underneath."),
        ("u25", "Mixed: English, Ελληνικά, 日本語, and emoji 🧪 in one sentence."),
        ("u27", "Has anyone tried it in a 20x8 terminal? It's tiny but it works."),
        ("u31", "@astrid is me, just checking the self-mention again 😄"),
        ("u1", "Thanks everyone, this thread is now the official demo. Post here as much as you like: it's a file in your data directory."),
        ("u12", "Last comment of the demo. Scroll up to read from the start, or press Ctrl-Home."),
    ]
}
