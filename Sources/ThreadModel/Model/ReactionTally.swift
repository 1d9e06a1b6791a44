import Foundation

/// The reactions to a thread's comments as `react` and `unreact` records leave them, in file
/// order: each person counted once per key, a reaction taken back gone. Bounded as a room's are:
/// a comment keeps at most `mostPerComment` reactions and a person at most `mostPerSender` on one
/// comment (those past it are reported and not counted), so a hostile file stays cheap to count.
public struct ReactionTally: Sendable {
    /// The most reactions counted on one comment.
    public static let mostPerComment = 2000
    /// The most reactions one person has counted on one comment.
    public static let mostPerSender = 20

    /// The people who reacted with one key, by user id (a hostile file's thousands looked up at
    /// once, not searched), each with when and the order they came in.
    struct People: Sendable {
        var byAuthor: [String: (at: Date, order: Int)] = [:]
        private var next = 0

        var isEmpty: Bool { byAuthor.isEmpty }
        var count: Int { byAuthor.count }

        mutating func add(_ author: String, at: Date) {
            byAuthor[author] = (at, next)
            next += 1
        }

        /// Who reacted, in the order they did.
        var list: [(author: String, at: Date)] {
            byAuthor.sorted { $0.value.order < $1.value.order }.map { ($0.key, $0.value.at) }
        }
    }

    /// One comment's reactions: per key, who reacted and when, in the order they did.
    struct Reactions: Sendable {
        var keys: [String] = []
        var reactors: [String: People] = [:]
        var total = 0
        /// How many reactions each person has here.
        var perSender: [String: Int] = [:]
    }

    private var byComment: [String: Reactions] = [:]

    public init() {}

    /// Whether no comment has reactions.
    public var isEmpty: Bool { byComment.isEmpty }

    /// The comments with reactions.
    public var commentIDs: [String] { Array(byComment.keys) }

    /// Applies a record: whether the counts changed, and why it does not count when it is past
    /// a bound (a repeat or a taking back of nothing changes nothing and is no problem).
    @discardableResult
    public mutating func apply(_ change: ReactionChange) -> (changed: Bool, refusal: String?) {
        // Taken out while changed, put back after: held once, they change in place, not copied
        // whole per record (a hostile file's thousands of people on one key).
        var reactions = byComment.removeValue(forKey: change.comment) ?? Reactions()
        var people = reactions.reactors.removeValue(forKey: change.key) ?? People()
        let keyWasThere = !people.isEmpty
        defer {
            if people.isEmpty {
                if keyWasThere { reactions.keys.removeAll { $0 == change.key } }
            } else {
                if !keyWasThere { reactions.keys.append(change.key) }
                reactions.reactors[change.key] = people
            }
            if reactions.total > 0 { byComment[change.comment] = reactions }
        }
        let known = people.byAuthor[change.author] != nil
        if change.removes {
            guard known else { return (false, nil) }
            people.byAuthor[change.author] = nil
            reactions.total -= 1
            reactions.perSender[change.author, default: 1] -= 1
            if reactions.perSender[change.author] == 0 { reactions.perSender[change.author] = nil }
        } else {
            guard !known else { return (false, nil) }
            if let refusal = Self.refusal(reactions, by: change.author) { return (false, refusal + ", ignored") }
            people.add(change.author, at: change.created)
            reactions.total += 1
            reactions.perSender[change.author, default: 0] += 1
        }
        return (true, nil)
    }

    /// Why `change` would not count (it is past a bound), without applying it: what a writer
    /// checks before appending a record readers would ignore.
    public func refusal(for change: ReactionChange) -> String? {
        guard !change.removes, let reactions = byComment[change.comment],
              reactions.reactors[change.key]?.byAuthor[change.author] == nil else { return nil }
        return Self.refusal(reactions, by: change.author)
    }

    private static func refusal(_ reactions: Reactions, by author: String) -> String? {
        if reactions.total >= mostPerComment { return "over the bound of \(mostPerComment) reactions to one comment" }
        if reactions.perSender[author, default: 0] >= mostPerSender {
            return "over the bound of \(mostPerSender) reactions by one person to one comment"
        }
        return nil
    }

    /// Applies records in file order, each with its line: the problems of those past a bound.
    public mutating func apply(_ changes: [(change: ReactionChange, line: Int)]) -> [ThreadFileProblem] {
        changes.compactMap { change, line in
            apply(change).refusal.map { ThreadFileProblem(line: line, message: "\(change.recordType) of comment \"\(change.comment)\" \($0)") }
        }
    }

    /// Forgets a comment's reactions (it was deleted, or is not in the thread).
    public mutating func removeAll(of commentID: String) { byComment[commentID] = nil }

    /// The reactions to a comment by key, as a room's are counted: most people first, then
    /// the key reacted with first; `me` marks the reader's.
    public func counts(of commentID: String, me: String) -> [ReactionCount] {
        guard let reactions = byComment[commentID] else { return [] }
        var counts: [ReactionCount] = []
        for key in reactions.keys {
            let people = reactions.reactors[key] ?? People()
            let mine = people.byAuthor[me] != nil
            counts.append(ReactionCount(key: key, count: people.count, includesMine: mine))
        }
        // Stable: keys with as many people keep the order they were first reacted with.
        let ordered = counts.enumerated().sorted { a, b in
            a.element.count != b.element.count ? a.element.count > b.element.count : a.offset < b.offset
        }
        return ordered.map(\.element)
    }

    /// Who reacted to a comment with each key, in the order of `counts(of:me:)`, each key's
    /// people in the order they reacted.
    public func reactors(of commentID: String) -> [(key: String, authors: [String])] {
        guard let reactions = byComment[commentID] else { return [] }
        return counts(of: commentID, me: "").map { count in (count.key, (reactions.reactors[count.key]?.list ?? []).map(\.author)) }
    }

    /// Whether `author` has reacted to a comment with `key`.
    public func contains(_ key: String, by author: String, on commentID: String) -> Bool {
        byComment[commentID]?.reactors[key]?.byAuthor[author] != nil
    }

    /// The reactions standing now, as `react` records (what `export` writes): comment by
    /// comment in `order`, each comment's keys and people in the order they came.
    public func standing(inOrderOf order: [String]) -> [ReactionChange] {
        order.flatMap { id -> [ReactionChange] in
            guard let reactions = byComment[id] else { return [] }
            return reactions.keys.flatMap { key in
                (reactions.reactors[key]?.list ?? []).map { ReactionChange(comment: id, author: $0.author, created: $0.at, key: key) }
            }
        }
    }
}

extension ReactionTally {
    /// Whether a comment has reactions counted.
    public func holds(_ commentID: String) -> Bool { byComment[commentID] != nil }
}
