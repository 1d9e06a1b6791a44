/// The vocabulary of generated threads: people, sentences, and the ways comments are put together.
enum GeneratorText {
    static let titles = [
        "Release 2.4 planning", "Why is the build slow on Mondays?", "Ideas for the offsite 🏔️",
        "Migrating the billing service to the new queue", "Design review: the new onboarding flow",
        "Postmortem: the search outage of March 3", "What are you reading this month? 📚",
        "RFC: one config format to rule them all",
    ]

    static let people: [(handle: String, name: String)] = [
        ("alice", "Alice"), ("bob", "Bob"), ("carmen", "Carmen"), ("dev", "Dev"), ("emeka", "Emeka"),
        ("fatima", "Fatima"), ("gus", "Gus"), ("hiro", "宏"), ("ingrid", "Ingrid"), ("jae", "재현"),
        ("kasia", "Kasia"), ("leo", "Léo"), ("mei", "美"), ("nadia", "Надя"), ("omar", "Omar"),
        ("pia", "Pia"), ("quinn", "Quinn"), ("rosa", "Rosa"), ("sven", "Sven"), ("tariq", "Tariq"),
        ("uma", "Uma"), ("vera", "Vera"), ("wen", "文"), ("ximena", "Ximena"), ("yusuf", "Yusuf"), ("zoe", "Zoë"),
    ]

    static let surnames: [(handle: String, name: String)] = [
        ("smith", "Smith"), ("garcia", "García"), ("tanaka", "田中"), ("kim", "김"), ("ivanova", "Иванова"),
        ("okoro", "Okoro"), ("muller", "Müller"), ("rossi", "Rossi"), ("wang", "王"), ("silva", "Silva"),
        ("nguyen", "Nguyễn"), ("haddad", "Haddad"), ("berg", "Berg"), ("patel", "Patel"),
    ]

    static let sentences = [
        "I think this is the right direction.", "Can we get numbers before deciding?",
        "We tried something similar last year and it worked well.", "Not sure about the timeline though.",
        "Agreed, let's ship the small version first.", "This broke my local setup, investigating.",
        "The docs say the opposite, so one of them is wrong.", "Let me write a quick prototype tonight.",
        "Is there a ticket for this?", "Thanks, that clears it up.", "I'd rather keep it simple.",
        "Benchmarks look good on my machine.", "Can someone double-check the migration script?",
        "We should ask the support team what customers actually hit.", "Looks good to me.",
        "This is a breaking change for the mobile clients.", "Let's pair on it tomorrow morning.",
        "The flaky test is back.", "I left a few comments on the pull request.", "+1, with one caveat.",
    ]

    static let cjk = [
        "これは良いアイデアだと思います。", "我同意这个方案，但需要更多测试。", "이번 주 안에 끝낼 수 있을 것 같아요.",
        "締め切りは金曜日です。", "性能提升很明显。",
    ]

    static let emoji = ["👍", "🎉", "🚀", "😅", "🙏", "🔥", "👀", "✅", "🤔", "☕", "🐛", "💡"]

    static let codeSpans = ["`make test`", "`git rebase -i`", "`--dry-run`", "`retry_count = 3`", "`SELECT * FROM jobs`", "`npm ci`"]

    static let links = [
        "[the runbook](https://wiki.example.com/runbook)", "[this issue](https://tracker.example.com/issues/4521)",
        "https://status.example.com", "[dashboard](https://grafana.example.com/d/latency)",
    ]

    static let codeBlocks = [
        "```swift\nlet retries = max(1, config.retries)\nfor attempt in 1...retries { try send(attempt) }\n```",
        "```sh\n$ time make build\nreal    3m12.004s\n```",
        "```json\n{\"queue\": \"billing\", \"prefetch\": 32}\n```",
    ]

    static func postBody(_ random: inout SeededRandom, users: [User]) -> String {
        var paragraphs: [String] = []
        for _ in 0..<3 { paragraphs.append(paragraph(&random, sentences: 3 + random.below(3))) }
        paragraphs.append("Things to decide:\n- **scope** of the first step\n- who owns the rollout\n- ~~the date~~ the order of work")
        if users.count > 1 { paragraphs.append("cc @\(users[1].handle)") }
        return paragraphs.joined(separator: "\n\n")
    }

    static func commentBody(_ random: inout SeededRandom, users: [User], author: User) -> String {
        switch random.below(40) {
        case 0: return random.pick(emoji)
        case 1: return "+1"
        case 2, 3:
            // A long comment: several paragraphs, sometimes with a code block.
            var parts = (0..<(2 + random.below(4))).map { _ in paragraph(&random, sentences: 3 + random.below(5)) }
            if random.below(2) == 0 { parts.insert(random.pick(codeBlocks), at: 1) }
            return parts.joined(separator: "\n\n")
        default:
            var words = [paragraph(&random, sentences: 1 + random.below(3))]
            if random.below(4) == 0, users.count > 1 {
                var other = random.pick(users)
                if other.id == author.id { other = users[(users.firstIndex(of: other)! + 1) % users.count] }
                words.insert("@\(other.handle)", at: 0)
            }
            if random.below(8) == 0 { words.append("||\(random.pick(sentences))||") }
            if random.below(6) == 0 { words.append("Try \(random.pick(codeSpans)).") }
            if random.below(10) == 0 { words.append("See \(random.pick(links)).") }
            if random.below(10) == 0 { words.append(random.pick(cjk)) }
            if random.below(5) == 0 { words.append(random.pick(emoji)) }
            return words.joined(separator: " ")
        }
    }

    /// Sentences with light Markdown emphasis.
    static func paragraph(_ random: inout SeededRandom, sentences count: Int) -> String {
        (0..<count).map { _ in
            let sentence = random.pick(sentences)
            switch random.below(12) {
            case 0: return "**\(sentence)**"
            case 1: return "*\(sentence)*"
            default: return sentence
            }
        }.joined(separator: " ")
    }
}
