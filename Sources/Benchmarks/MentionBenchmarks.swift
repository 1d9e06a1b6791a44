import Foundation
import ThreadModel

/// @mention picker: building the ranker over 100,000 users and re-ranking on each keystroke.
func mentionBenchmarks() -> [BenchmarkRow] {
    let (users, recency) = mentionBenchmarkUsers(count: 100_000)
    var rows: [BenchmarkRow] = []

    var buildSamples: [Double] = []
    var ranker = MentionRanker(users: [])
    for _ in 0..<3 {
        let start = benchNow()
        ranker = MentionRanker(users: users, recency: recency)
        buildSamples.append(Double(benchNow() - start))
    }
    rows.append(BenchmarkRow(
        area: "mentions", name: "build, 100k users",
        value: "median " + formatNanos(percentiles(buildSamples).median) + ", max " + formatNanos(buildSamples.max() ?? 0)
    ))

    // A typed sequence, then fuzzy and diacritic queries; each re-rank is one keystroke, with
    // the client's list size (200).
    for query in ["", "m", "ma", "mar", "mari", "mrtz", "josé", "🚀"] {
        var samples: [Double] = []
        var total = 0
        for _ in 0..<101 {
            let start = benchNow()
            let results = ranker.rank(query, limit: 200)
            samples.append(Double(benchNow() - start))
            total = results.total
        }
        let value = "median " + formatNanos(percentiles(samples).median) + ", max " + formatNanos(samples.max() ?? 0)
            + " (\(total) matched)"
        rows.append(BenchmarkRow(area: "mentions", name: "rank \"\(query)\", limit 200", value: value))
    }
    var newer = recency
    for (n, user) in ranker.users.enumerated() where n % 7 == 0 { newer[user.id] = 1_000_000 + n }
    let start = benchNow()
    _ = ranker.withRecency(newer)
    rows.append(BenchmarkRow(area: "mentions", name: "new recency after comments arrive, 100k users", value: formatNanos(Double(benchNow() - start))))
    // The client's case: the latest 1,000 comments' writers, taken in place on the next key.
    var window: [String: Int] = [:]
    for n in 0..<1_000 { window[ranker.users[(n * 7919) % ranker.users.count].id] = n }
    var inPlace: [Double] = []
    for _ in 0..<21 {
        let start = benchNow()
        ranker.setRecency(window)
        inPlace.append(Double(benchNow() - start))
    }
    rows.append(BenchmarkRow(area: "mentions", name: "new recency in place, the latest 1,000 comments' writers, 100k users",
                             value: "median " + formatNanos(percentiles(inPlace).median)))
    rows += smallThreadRows()
    rows += threadNameRows()
    rows += mentionClientRows()
    return rows
}

/// Build and a few keystrokes at 500 users, the size of a busy thread.
private func smallThreadRows() -> [BenchmarkRow] {
    let (users, recency) = mentionBenchmarkUsers(count: 500)
    var builds: [Double] = []
    var ranker = MentionRanker(users: [])
    for _ in 0..<21 {
        let start = benchNow()
        ranker = MentionRanker(users: users, recency: recency)
        builds.append(Double(benchNow() - start))
    }
    var rows = [BenchmarkRow(area: "mentions", name: "build, 500 users", value: "median " + formatNanos(percentiles(builds).median))]
    for query in ["", "m", "ma", "mrtz"] {
        var samples: [Double] = []
        for _ in 0..<101 {
            let start = benchNow()
            _ = ranker.rank(query, limit: 200)
            samples.append(Double(benchNow() - start))
        }
        rows.append(BenchmarkRow(area: "mentions", name: "rank \"\(query)\", limit 200, 500 users",
                                 value: "median " + formatNanos(percentiles(samples).median)))
    }
    return rows
}

/// Home's filter and the Ctrl-K switcher build the same index over thread names
/// (`ThreadNameRanker`: the name as handle and name, the list's order as recency).
private func threadNameRows() -> [BenchmarkRow] {
    let (people, _) = mentionBenchmarkUsers(count: 5_000)
    return [500, 5_000].map { count in
        let users = people.prefix(count).enumerated().map { User(id: String($0.offset), handle: $0.element.name, name: $0.element.name) }
        let recency = Dictionary(uniqueKeysWithValues: users.indices.map { (String($0), count - $0) })
        var samples: [Double] = []
        for _ in 0..<11 {
            let start = benchNow()
            _ = MentionRanker(users: users, recency: recency)
            samples.append(Double(benchNow() - start))
        }
        return BenchmarkRow(area: "mentions", name: "build over \(count) thread names (home's filter, Ctrl-K)",
                            value: "median " + formatNanos(percentiles(samples).median) + ", max " + formatNanos(samples.max() ?? 0))
    }
}

private func formatNanos(_ nanos: Double) -> String {
    nanos < 1e6 ? String(format: "%.0f µs", nanos / 1e3) : String(format: "%.2f ms", nanos / 1e6)
}

/// Deterministic users: varied first and last names (some with diacritics, some with an emoji) and ASCII handles.
func mentionBenchmarkUsers(count: Int) -> ([User], [String: Int]) {
    let firsts: [(name: String, ascii: String)] = [
        ("Maria", "maria"), ("Mario", "mario"), ("Marie", "marie"), ("José", "jose"), ("Zoë", "zoe"),
        ("Chloé", "chloe"), ("Björn", "bjorn"), ("Søren", "soren"), ("Łukasz", "lukasz"), ("François", "francois"),
        ("Ana María", "anamaria"), ("Jean-Luc", "jeanluc"), ("Mark", "mark"), ("Martha", "martha"), ("Liam", "liam"),
        ("Olivia", "olivia"), ("Noah", "noah"), ("Emma", "emma"), ("Ava", "ava"), ("Lucas", "lucas"),
        ("Mateo", "mateo"), ("Amélie", "amelie"), ("Renée", "renee"), ("Dmitri", "dmitri"), ("Yuki", "yuki"),
        ("Aarav", "aarav"), ("Fatima", "fatima"), ("Kwame", "kwame"), ("Ingrid", "ingrid"), ("Siobhán", "siobhan"),
    ]
    let lasts: [(name: String, ascii: String)] = [
        ("Martínez", "martinez"), ("García", "garcia"), ("Müller", "muller"), ("Smith", "smith"), ("Jones", "jones"),
        ("O'Brien", "obrien"), ("Nguyễn", "nguyen"), ("Kowalski", "kowalski"), ("Dubois", "dubois"), ("Rossi", "rossi"),
        ("Andersson", "andersson"), ("Tanaka", "tanaka"), ("Silva", "silva"), ("Johnson", "johnson"), ("Brown", "brown"),
        ("van der Berg", "vanderberg"), ("Marsh", "marsh"), ("Øvergaard", "overgaard"), ("Petrović", "petrovic"),
        ("Hernández", "hernandez"), ("Lefèvre", "lefevre"), ("Schmidt", "schmidt"), ("Kim", "kim"), ("Patel", "patel"),
    ]
    let emoji = ["🚀", "🎸", "☕️", "👩‍💻", "🌱", "✨"]
    var random = SeededRandom(seed: 0x5EED_1234)
    func next(_ n: Int) -> Int { random.below(n) }
    var users: [User] = []
    users.reserveCapacity(count)
    for i in 0..<count {
        let first = firsts[next(firsts.count)]
        let last = lasts[next(lasts.count)]
        var name = first.name + " " + last.name
        if next(25) == 0 { name += " " + emoji[next(emoji.count)] }
        let handle = first.ascii.prefix(1 + next(4)) + (next(3) == 0 ? "_" : "") + last.ascii + String(i)
        users.append(User(id: "u\(i)", handle: handle, name: name))
    }
    // Nearly 5,000 participants of a long thread, the later draws the more recent.
    var recency: [String: Int] = [:]
    for index in 0..<5_000 { recency["u\(next(count))"] = index }
    return (users, recency)
}
