/// Ranks a thread's users for the @mention picker, re-ranking on every keystroke.
///
/// Order: prefix matches (of the handle, or of any word of the display name) before fuzzy
/// (subsequence) matches; within each, an exact handle match first, then more recent participation,
/// then a handle-prefix before a name-prefix match, then handles alphabetically (case-insensitive).
/// Matching ignores case and diacritics (`jose` finds `José`). All folding happens once in `init`;
/// a re-rank compares plain byte arrays and keeps only the best `limit` while counting the rest.
///
/// The index is compact (about 55 bytes a user besides `users`: 100,000 users in some 5 MB):
/// folded keys as UTF-8 bytes (`MentionKeyWriter`), word starts found in them rather than stored,
/// one 48-byte entry a user, and recency kept only for the users who have one, so new recency
/// touches those users alone.
public struct MentionRanker: Sendable {
    /// The users, in the order given (those excluded included, never offered).
    public let users: [User]

    /// Where a user's folded keys sit in `keys`, the masks that reject most users at once, and
    /// the precomputed part of its sort key.
    struct Entry {
        /// A bit per byte class (value mod 64) of the handle, of the name, of the name's word initials.
        var handleMask: UInt64
        var nameMask: UInt64
        var wordInitials: UInt64
        var baseKey: UInt64
        var start: UInt32
        var handleCount: UInt32
        var nameCount: UInt32
        /// The handle's first byte: most prefix checks end here, without a cache miss into `keys`.
        var handleFirst: UInt8
        /// Not offered (the reader, members who left): matches nothing.
        var isExcluded: Bool
    }

    /// Sort key bits, smaller is better; the low bits are the user's alphabetical rank, so keys are unique.
    enum KeyBits {
        static let fuzzy: UInt64 = 1 << 62
        static let notExact: UInt64 = 1 << 61
        static let recencyShift: UInt64 = 32
        /// The recency rank of a user who has none: after every rank a user has.
        static let noRecency: UInt64 = (1 << 29) - 1
        static let namePrefix: UInt64 = 1 << 31
        static let alphaRank: UInt64 = (1 << 31) - 1
    }

    /// One per user, in `users`' order.
    var entries: [Entry]
    /// Every user's folded handle then folded name (separators as spaces), back to back, in UTF-8.
    let keys: [UInt8]
    /// User index by alphabetical rank, to decode a key.
    private let byAlphaRank: [Int32]
    /// User indices by id, to find a user's entry for its recency; nil when `users` are in id order.
    private let byID: [Int32]?
    /// The users with a recency, best base key first: the head of the answer to the empty query.
    private var recent: [Int32] = []
    /// How many users are not excluded.
    private let offeredCount: Int

    /// Folds every user's handle and name once; `recency` maps user ids to larger-is-more-recent
    /// values; users whose ids are in `excluding` are never offered.
    public init(users: [User], recency: [String: Int] = [:], excluding: Set<String> = []) {
        precondition(users.count < 1 << 29, "sort keys hold at most 2^29 users")
        self.users = users
        var writer = MentionKeyWriter(capacity: users.reduce(0) { $0 + $1.handle.utf8.count + $1.name.utf8.count })
        var entries: [Entry] = []
        entries.reserveCapacity(users.count)
        var offered = 0
        for user in users {
            let start = writer.bytes.count
            let handleCount = writer.append(user.handle, separatorsAsSpace: false)
            let nameCount = writer.append(user.name, separatorsAsSpace: true)
            let isExcluded = excluding.contains(user.id)
            if !isExcluded { offered += 1 }
            entries.append(writer.bytes.withUnsafeBufferPointer { keys in
                let handle = UnsafeBufferPointer(rebasing: keys[start..<start + handleCount])
                let name = UnsafeBufferPointer(rebasing: keys[start + handleCount..<start + handleCount + nameCount])
                return Entry(
                    handleMask: isExcluded ? 0 : Self.mask(handle), nameMask: isExcluded ? 0 : Self.mask(name),
                    wordInitials: Self.wordInitials(name), baseKey: 0,
                    start: UInt32(start), handleCount: UInt32(handleCount), nameCount: UInt32(nameCount),
                    handleFirst: handle.first ?? 0, isExcluded: isExcluded
                )
            })
        }
        let keys = writer.finish()
        self.byAlphaRank = Self.alphabetical(users, entries, keys)
        for (rank, index) in byAlphaRank.enumerated() {
            entries[Int(index)].baseKey = KeyBits.notExact | KeyBits.noRecency << KeyBits.recencyShift | UInt64(rank)
        }
        self.entries = entries
        self.keys = keys
        self.offeredCount = offered
        let inIDOrder = zip(users, users.dropFirst()).allSatisfy { $0.id <= $1.id }
        self.byID = inIDOrder ? nil : (0..<Int32(users.count)).sorted { users[Int($0)].id < users[Int($1)].id }
        setRecency(recency)
    }

    /// User indices, alphabetical by folded handle; the raw handle and then the position only break exact ties.
    private static func alphabetical(_ users: [User], _ entries: [Entry], _ keys: [UInt8]) -> [Int32] {
        // The first eight bytes as one big-endian number decide most comparisons without touching `keys`.
        let heads: [UInt64] = keys.withUnsafeBufferPointer { keys in
            entries.map { entry in
                var head: UInt64 = 0
                for i in 0..<8 { head = head << 8 | (i < Int(entry.handleCount) ? UInt64(keys[Int(entry.start) + i]) : 0) }
                return head
            }
        }
        var order = Array(0..<Int32(users.count))
        keys.withUnsafeBufferPointer { keys in
            order.sort { a, b in
                let (ia, ib) = (Int(a), Int(b))
                if heads[ia] != heads[ib] { return heads[ia] < heads[ib] }
                let (ea, eb) = (entries[ia], entries[ib])
                let ha = UnsafeBufferPointer(rebasing: keys[Int(ea.start)..<Int(ea.start + ea.handleCount)])
                let hb = UnsafeBufferPointer(rebasing: keys[Int(eb.start)..<Int(eb.start + eb.handleCount)])
                if let order = compare(ha, hb) { return order }
                if users[ia].handle != users[ib].handle { return users[ia].handle < users[ib].handle }
                return a < b
            }
        }
        return order
    }

    /// The same users with new recency (new comments arrived): only the sort keys of the users
    /// who had or have a recency are recomputed, not the folded search keys.
    public func withRecency(_ recency: [String: Int]) -> MentionRanker {
        var copy = self
        copy.setRecency(recency)
        return copy
    }

    /// Takes new recency in place (`withRecency` without a copy of the index).
    public mutating func setRecency(_ recency: [String: Int]) {
        for index in recent { setBaseKey(of: Int(index), recencyRank: KeyBits.noRecency) }
        // Dense rank of recency values, most recent 0; users without one come after everyone who has.
        let distinct = Set(recency.values).sorted(by: >)
        let recencyRank = Dictionary(uniqueKeysWithValues: distinct.enumerated().map { ($1, UInt64($0)) })
        var recent: [Int32] = []
        for (id, value) in recency {
            guard let rank = recencyRank[value] else { continue }
            for index in userIndices(withID: id) {
                setBaseKey(of: index, recencyRank: rank)
                recent.append(Int32(index))
            }
        }
        recent.sort { entries[Int($0)].baseKey < entries[Int($1)].baseKey }
        self.recent = recent
    }

    private mutating func setBaseKey(of index: Int, recencyRank: UInt64) {
        let alphaRank = entries[index].baseKey & KeyBits.alphaRank
        entries[index].baseKey = KeyBits.notExact | recencyRank << KeyBits.recencyShift | alphaRank
    }

    /// The indices of the users with `id` (one, unless the caller gave the same id twice).
    private func userIndices(withID id: String) -> [Int] {
        var low = 0, high = users.count
        while low < high {
            let middle = (low + high) / 2
            if users[userIndex(byID: middle)].id < id { low = middle + 1 } else { high = middle }
        }
        var found: [Int] = []
        while low < users.count, users[userIndex(byID: low)].id == id {
            found.append(userIndex(byID: low))
            low += 1
        }
        return found
    }

    private func userIndex(byID position: Int) -> Int { byID.map { Int($0[position]) } ?? position }

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
        if handleQuery.isEmpty { return everyone(limit: max(0, limit)) }
        let nameQuery = MentionSearchKey(query, separatorsAsSpace: true).scalars
        var best = MentionBestKeys(limit: limit)
        let total = scan(MentionKeyWriter.utf8(handleQuery), MentionKeyWriter.utf8(nameQuery), into: &best)
        let matches = best.sorted().map { match(forKey: $0, handleQuery, nameQuery) }
        return MentionResults(matches: matches, total: total)
    }

    /// The empty query: everyone offered, the recent first, then the rest alphabetically.
    private func everyone(limit: Int) -> MentionResults {
        var picked: [Int] = []
        picked.reserveCapacity(min(limit, offeredCount))
        for index in recent where picked.count < limit && !entries[Int(index)].isExcluded { picked.append(Int(index)) }
        if picked.count < limit {
            for index in byAlphaRank {
                let entry = entries[Int(index)]
                guard !entry.isExcluded, entry.baseKey >> KeyBits.recencyShift & KeyBits.noRecency == KeyBits.noRecency else { continue }
                picked.append(Int(index))
                if picked.count == limit { break }
            }
        }
        return MentionResults(matches: picked.map { MentionMatch(user: users[$0], kind: .handlePrefix) }, total: offeredCount)
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
