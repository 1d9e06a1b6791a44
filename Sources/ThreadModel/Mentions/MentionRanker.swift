/// Ranks a thread's users for the @mention picker, re-ranking on every keystroke.
///
/// Order: prefix matches (of the handle, or of any word of the display name) before fuzzy
/// (subsequence) matches; within each, an exact handle match first, then more recent participation,
/// then a handle-prefix before a name-prefix match, then handles alphabetically (case-insensitive).
/// Matching ignores case and diacritics (`jose` finds `José`). All folding happens once in `init`;
/// a re-rank compares plain scalar arrays and keeps only the best `limit` while counting the rest.
public struct MentionRanker: Sendable {
    /// The users, in the order given.
    public let users: [User]

    /// Where a user's folded keys sit in `scalars` and `wordStarts`, plus the precomputed parts of its sort key.
    private struct Entry {
        var start: Int32
        var handleCount: Int32
        var nameCount: Int32
        var wordsStart: Int32
        var wordCount: Int32
        /// The handle's first scalar and a mask of the names' word initials: most prefix checks end here,
        /// without a cache miss into `scalars`.
        var handleFirst: UInt32
        var wordInitials: UInt64
        var handleMask: UInt64
        var nameMask: UInt64
        var baseKey: UInt64
    }

    /// Sort key bits, smaller is better; the low bits are the user's alphabetical rank, so keys are unique.
    private enum KeyBits {
        static let fuzzy: UInt64 = 1 << 62
        static let notExact: UInt64 = 1 << 61
        static let recencyShift: UInt64 = 32
        static let namePrefix: UInt64 = 1 << 31
        static let alphaRank: UInt64 = (1 << 31) - 1
    }

    private var entries: [Entry]
    /// Every user's folded handle then folded name (separators as spaces), back to back.
    private let scalars: [UInt32]
    /// Word starts of each name, relative to the name's first scalar.
    private let wordStarts: [Int32]
    /// User index by alphabetical rank, to decode a key.
    private let byAlphaRank: [Int32]
    /// User indices by recency then handle: the whole answer to the empty query.
    private var byBaseKey: [Int32]

    /// Folds every user's handle and name once; `recency` maps user ids to larger-is-more-recent values.
    public init(users: [User], recency: [String: Int] = [:]) {
        precondition(users.count < 1 << 29, "sort keys hold at most 2^29 users")
        self.users = users
        var entries: [Entry] = []
        var scalars: [UInt32] = []
        var wordStarts: [Int32] = []
        entries.reserveCapacity(users.count)
        for user in users {
            let handle = MentionSearchKey(user.handle, separatorsAsSpace: false).scalars
            let name = MentionSearchKey(user.name, separatorsAsSpace: true).scalars
            let words = MentionSearchKey.wordStarts(name)
            entries.append(Entry(
                start: Int32(scalars.count), handleCount: Int32(handle.count), nameCount: Int32(name.count),
                wordsStart: Int32(wordStarts.count), wordCount: Int32(words.count),
                handleFirst: handle.first ?? 0, wordInitials: MentionSearchKey.mask(words.map { name[$0] }),
                handleMask: MentionSearchKey.mask(handle), nameMask: MentionSearchKey.mask(name), baseKey: 0
            ))
            scalars += handle
            scalars += name
            wordStarts += words.map { Int32($0) }
        }

        // Alphabetical by folded handle; the raw handle and then the position only break exact ties.
        let alphabetical = scalars.withUnsafeBufferPointer { keys in
            users.indices.sorted { a, b in
                let ha = UnsafeBufferPointer(rebasing: keys[Int(entries[a].start)..<Int(entries[a].start + entries[a].handleCount)])
                let hb = UnsafeBufferPointer(rebasing: keys[Int(entries[b].start)..<Int(entries[b].start + entries[b].handleCount)])
                if let order = Self.compare(ha, hb) { return order }
                if users[a].handle != users[b].handle { return users[a].handle < users[b].handle }
                return a < b
            }
        }

        self.entries = entries
        self.scalars = scalars
        self.wordStarts = wordStarts
        self.byAlphaRank = alphabetical.map { Int32($0) }
        self.byBaseKey = []
        applyRecency(recency)
    }

    /// The same users with new recency (new comments arrived): only the sort keys are
    /// recomputed, not the folded search keys.
    public func withRecency(_ recency: [String: Int]) -> MentionRanker {
        var copy = self
        copy.applyRecency(recency)
        return copy
    }

    private mutating func applyRecency(_ recency: [String: Int]) {
        // Dense rank of recency values, most recent 0; users without one come after everyone who has.
        let distinct = Set(recency.values).sorted(by: >)
        let recencyRank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, $0) })
        for (rank, index) in byAlphaRank.enumerated() {
            let recent = recency[users[Int(index)].id].flatMap { recencyRank[$0] } ?? distinct.count
            entries[Int(index)].baseKey = KeyBits.notExact | UInt64(recent) << KeyBits.recencyShift | UInt64(rank)
        }
        byBaseKey = entries.indices.sorted { entries[$0].baseKey < entries[$1].baseKey }.map { Int32($0) }
    }

    /// A ranker over a thread's users, recency taken from their comments (the post's author counts as earliest).
    public init(thread: CommentThread) {
        var recency = Self.recency(of: thread.comments)
        if recency[thread.author] == nil { recency[thread.author] = -1 }
        self.init(users: thread.users, recency: recency)
    }

    /// The index of each author's latest comment, for `init(users:recency:)`.
    public static func recency(of comments: [Comment]) -> [String: Int] {
        var latest: [String: Int] = [:]
        for (index, comment) in comments.enumerated() { latest[comment.author] = index }
        return latest
    }

    /// The best `limit` users for `query` (typed after `@`), best first, and how many matched in all.
    public func rank(_ query: String, limit: Int) -> MentionResults {
        let handleQuery = MentionSearchKey(query, separatorsAsSpace: false).scalars
        if handleQuery.isEmpty {
            let matches = byBaseKey.prefix(max(0, limit)).map { MentionMatch(user: users[Int($0)], kind: .handlePrefix) }
            return MentionResults(matches: matches, total: users.count)
        }
        let nameQuery = MentionSearchKey(query, separatorsAsSpace: true).scalars
        var best = MentionBestKeys(limit: limit)
        let total = scan(handleQuery, nameQuery, into: &best)
        let matches = best.sorted().map { match(forKey: $0, handleQuery, nameQuery) }
        return MentionResults(matches: matches, total: total)
    }

    /// The per-keystroke loop: masks reject most users, then prefix, word-prefix and subsequence checks on raw buffers.
    private func scan(_ handleQuery: [UInt32], _ nameQuery: [UInt32], into best: inout MentionBestKeys) -> Int {
        guard !scalars.isEmpty else { return 0 }
        let handleQueryMask = MentionSearchKey.mask(handleQuery)
        let nameQueryMask = MentionSearchKey.mask(nameQuery)
        let handleQueryFirst = handleQuery[0]
        let nameQueryInitial = MentionSearchKey.mask(nameQuery.prefix(1))
        var total = 0
        entries.withUnsafeBufferPointer { entries in
            scalars.withUnsafeBufferPointer { keys in
                wordStarts.withUnsafeBufferPointer { words in
                    handleQuery.withUnsafeBufferPointer { hq in
                        nameQuery.withUnsafeBufferPointer { nq in
                            let base = keys.baseAddress!
                            for entry in entries {
                                let handleMay = handleQueryMask & ~entry.handleMask == 0
                                let nameMay = nameQueryMask & ~entry.nameMask == 0
                                guard handleMay || nameMay else { continue }
                                let handle = base + Int(entry.start)
                                let handleCount = Int(entry.handleCount)
                                let name = handle + handleCount
                                let nameCount = Int(entry.nameCount)
                                var key = entry.baseKey
                                if handleMay, entry.handleFirst == handleQueryFirst, Self.hasPrefix(handle, handleCount, hq) {
                                    if handleCount == hq.count { key &= ~KeyBits.notExact }
                                } else if nameMay, entry.wordInitials & nameQueryInitial != 0, Self.hasWordPrefix(name, nameCount, words, entry, nq) {
                                    key |= KeyBits.namePrefix
                                } else if (handleMay && Self.hasSubsequence(handle, handleCount, hq))
                                    || (nameMay && Self.hasSubsequence(name, nameCount, nq)) {
                                    key |= KeyBits.fuzzy
                                } else {
                                    continue
                                }
                                total += 1
                                best.offer(key)
                            }
                        }
                    }
                }
            }
        }
        return total
    }

    /// Whether `a` sorts before `b` scalar by scalar, or nil when equal (the generic `elementsEqual` dominated build time).
    private static func compare(_ a: UnsafeBufferPointer<UInt32>, _ b: UnsafeBufferPointer<UInt32>) -> Bool? {
        for i in 0..<min(a.count, b.count) where a[i] != b[i] { return a[i] < b[i] }
        return a.count == b.count ? nil : a.count < b.count
    }

    @inline(__always)
    private static func hasPrefix(_ key: UnsafePointer<UInt32>, _ count: Int, _ query: UnsafeBufferPointer<UInt32>) -> Bool {
        guard count >= query.count else { return false }
        for i in 0..<query.count where key[i] != query[i] { return false }
        return true
    }

    @inline(__always)
    private static func hasWordPrefix(
        _ name: UnsafePointer<UInt32>, _ nameCount: Int, _ words: UnsafeBufferPointer<Int32>,
        _ entry: Entry, _ query: UnsafeBufferPointer<UInt32>
    ) -> Bool {
        let first = Int(entry.wordsStart)
        for w in first..<first + Int(entry.wordCount) {
            let offset = Int(words[w])
            if hasPrefix(name + offset, nameCount - offset, query) { return true }
        }
        return false
    }

    @inline(__always)
    private static func hasSubsequence(_ key: UnsafePointer<UInt32>, _ count: Int, _ query: UnsafeBufferPointer<UInt32>) -> Bool {
        guard count >= query.count else { return false }
        var q = 0
        for i in 0..<count where key[i] == query[q] {
            q += 1
            if q == query.count { return true }
        }
        return false
    }

    /// Decodes a kept key into a match, folding just this user's strings again to find what to highlight.
    private func match(forKey key: UInt64, _ handleQuery: [UInt32], _ nameQuery: [UInt32]) -> MentionMatch {
        let user = users[Int(byAlphaRank[Int(key & KeyBits.alphaRank)])]
        let handle = MentionSearchKey(user.handle, separatorsAsSpace: false, withOrigins: true)
        let name = MentionSearchKey(user.name, separatorsAsSpace: true, withOrigins: true)
        if key & KeyBits.fuzzy != 0 {
            if let offsets = MentionSearchKey.subsequence(handleQuery, in: handle.scalars) {
                return MentionMatch(user: user, kind: .fuzzy, handleHighlights: handle.originalRanges(of: offsets))
            }
            let offsets = MentionSearchKey.subsequence(nameQuery, in: name.scalars) ?? []
            return MentionMatch(user: user, kind: .fuzzy, nameHighlights: name.originalRanges(of: offsets))
        }
        if key & KeyBits.namePrefix != 0 {
            let start = MentionSearchKey.wordStarts(name.scalars).first {
                name.scalars[$0...].starts(with: nameQuery)
            } ?? 0
            let offsets = start..<min(start + nameQuery.count, name.scalars.count)
            return MentionMatch(user: user, kind: .namePrefix, nameHighlights: name.originalRanges(of: offsets))
        }
        let offsets = 0..<min(handleQuery.count, handle.scalars.count)
        return MentionMatch(user: user, kind: .handlePrefix, handleHighlights: handle.originalRanges(of: offsets))
    }
}
