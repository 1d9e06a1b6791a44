import ThreadModel

/// Ranks threads by a typed name the way the @mention list ranks users (`MentionRanker`): a
/// prefix of the name before a prefix of one of its words before a fuzzy (in order) match,
/// ignoring case and accents (`cafe` finds `Café`); within each kind, the thread with the newer
/// activity first, then by name. Home's filter and the Ctrl-K switcher both read it.
struct ThreadNameRanker {
    /// One thread that matched: where it stands in the list given, and the parts of its name matched.
    struct Match: Equatable {
        /// Index into the summaries the ranker was built over.
        var index: Int
        /// Matched parts of the name, as offsets into its `unicodeScalars`.
        var highlights: [Range<Int>]
    }

    private let ranker: MentionRanker

    /// A ranker over `summaries`, given newest activity first (that order breaks ties in a kind).
    init(_ summaries: [ThreadSummary]) {
        // The name is both "handle" and "name": a prefix of the whole name ranks first, then a
        // prefix of a word in it. The list's position stands for recency (first is newest).
        let users = summaries.enumerated().map { User(id: String($0.offset), handle: $0.element.name, name: $0.element.name) }
        let recency = Dictionary(uniqueKeysWithValues: users.indices.map { (String($0), summaries.count - $0) })
        ranker = MentionRanker(users: users, recency: recency)
    }

    /// The best `limit` threads for `query`, best first, and how many matched in all; an empty
    /// query matches every thread, in the order given.
    func rank(_ query: String, limit: Int) -> (matches: [Match], total: Int) {
        let results = ranker.rank(query, limit: limit)
        let matches = results.matches.compactMap { match -> Match? in
            guard let index = Int(match.user.id) else { return nil }
            // The name stands twice in the user, so a match in either is a match in the name.
            let highlights = match.handleHighlights.isEmpty ? match.nameHighlights : match.handleHighlights
            return Match(index: index, highlights: highlights)
        }
        return (matches, results.total)
    }
}
