/// The per-keystroke scan over the index, and the byte checks it is made of.
extension MentionRanker {
    /// Masks reject most users, then prefix, word-prefix and subsequence checks on raw buffers;
    /// returns how many matched, the best kept in `best`.
    func scan(_ handleQuery: [UInt8], _ nameQuery: [UInt8], into best: inout MentionBestKeys) -> Int {
        guard !keys.isEmpty, !handleQuery.isEmpty, !nameQuery.isEmpty else { return 0 }
        let handleQueryMask = Self.mask(handleQuery)
        let nameQueryMask = Self.mask(nameQuery)
        let handleQueryFirst = handleQuery[0]
        let nameQueryInitial = Self.mask(nameQuery.prefix(1))
        var total = 0
        entries.withUnsafeBufferPointer { entries in
            keys.withUnsafeBufferPointer { keys in
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
                            } else if nameMay, entry.wordInitials & nameQueryInitial != 0, Self.hasWordPrefix(name, nameCount, nq) {
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
        return total
    }

    /// A bit per byte class (value mod 64): a key can only contain a query if it has all the query's bits.
    static func mask<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        bytes.reduce(0) { $0 | (1 << UInt64($1 & 63)) }
    }

    /// The mask of the first bytes of a separator-folded name's words.
    static func wordInitials(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var mask: UInt64 = 0
        var previous = MentionKeyWriter.space
        for byte in name {
            if byte != MentionKeyWriter.space, previous == MentionKeyWriter.space { mask |= 1 << UInt64(byte & 63) }
            previous = byte
        }
        return mask
    }

    /// Whether `a` sorts before `b` byte by byte (scalar order, in UTF-8), or nil when equal.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool? {
        for i in 0..<min(a.count, b.count) where a[i] != b[i] { return a[i] < b[i] }
        return a.count == b.count ? nil : a.count < b.count
    }

    @inline(__always)
    static func hasPrefix(_ key: UnsafePointer<UInt8>, _ count: Int, _ query: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count >= query.count else { return false }
        for i in 0..<query.count where key[i] != query[i] { return false }
        return true
    }

    /// Whether the query starts a word of the name (a non-space after a space, or the first byte).
    @inline(__always)
    static func hasWordPrefix(_ name: UnsafePointer<UInt8>, _ nameCount: Int, _ query: UnsafeBufferPointer<UInt8>) -> Bool {
        let first = query[0]
        // Words start with a non-space.
        guard first != MentionKeyWriter.space else { return false }
        var previous = MentionKeyWriter.space
        for offset in 0..<nameCount {
            let byte = name[offset]
            if byte == first, previous == MentionKeyWriter.space, hasPrefix(name + offset, nameCount - offset, query) { return true }
            previous = byte
        }
        return false
    }

    /// Whether the query's scalars appear in order in the key, compared whole (a byte of one
    /// scalar never matches a byte of another).
    @inline(__always)
    static func hasSubsequence(_ key: UnsafePointer<UInt8>, _ count: Int, _ query: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count >= query.count else { return false }
        var q = 0
        var i = 0
        while i < count {
            let lead = key[i]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            if lead == query[q] {
                var same = true
                for k in 1..<length where key[i + k] != query[q + k] {
                    same = false
                    break
                }
                if same {
                    q += length
                    if q == query.count { return true }
                }
            }
            i += length
        }
        return false
    }
}
