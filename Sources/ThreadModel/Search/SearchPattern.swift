/// What Ctrl-S looks for: a query folded (`SearchFolding`), and the users whose name or handle
/// holds it (a comment by one of them matches too).
///
/// A comment matches when its body holds the query, ignoring case and diacritics, or its
/// author's name or handle does. `verdict(line:)` tells the same from a thread file's raw line
/// without decoding it, where the line has the canonical shape.
public final class SearchPattern {
    /// The query as typed.
    public let query: String
    /// The query folded: what is looked for in folded text.
    public let needle: [UInt8]
    /// Ids of the users whose name or handle holds the query.
    public let authors: Set<String>
    /// `authors` as the bytes a canonical line writes them with.
    let authorBytes: Set<[UInt8]>
    let folding = SearchFolding()
    /// Folded text reused from line to line.
    var scratch: [UInt8] = []
    /// A raw line's body folded, reused from line to line.
    let foldedBody = FoldedText()

    /// The pattern for `query` among `users`.
    public convenience init(query: String, users: [User]) {
        self.init(query: query, users: SearchableUsers(users))
    }

    /// The pattern for `query` among users folded before (a search folds them once, not per key).
    public init(query: String, users: SearchableUsers) {
        self.query = query
        needle = folding.fold(query)
        authors = needle.isEmpty ? [] : users.ids(matching: needle)
        authorBytes = Set(authors.map { Array($0.utf8) })
    }

    /// Whether the query folds to nothing (only marks, or empty): such a query finds nothing.
    public var isEmpty: Bool { needle.isEmpty }

    /// Whether a comment matches: its body holds the query, or its author is one of `authors`.
    public func matches(_ comment: Comment) -> Bool {
        authors.contains(comment.author) || matches(comment.body)
    }

    /// Whether a text holds the query.
    public func matches(_ text: String) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        for scalar in text.unicodeScalars { folding.append(scalar, to: &scratch) }
        return Self.contains(scratch, needle)
    }

    /// The UTF-8 offset in `text` where the first match starts, if there is one.
    public func firstMatch(in text: String) -> Int? {
        guard !needle.isEmpty else { return nil }
        var folded: [UInt8] = []
        // For each folded byte, the offset of the character it came from.
        var sources: [Int] = []
        var offset = 0
        for scalar in text.unicodeScalars {
            let before = folded.count
            folding.append(scalar, to: &folded)
            sources.append(contentsOf: repeatElement(offset, count: folded.count - before))
            offset += UTF8.width(scalar)
        }
        return Self.firstIndex(of: needle, in: folded).map { sources[$0] }
    }

    /// Appends a text's folded bytes (for matching text the caller puts together, such as a
    /// comment's cells line by line).
    public func fold(_ text: some StringProtocol, into out: inout [UInt8]) {
        for scalar in text.unicodeScalars { folding.append(scalar, to: &out) }
    }

    /// Where the query is in folded bytes: the start of each occurrence, overlapping ones included.
    public func occurrences(in folded: [UInt8]) -> [Int] {
        guard !needle.isEmpty else { return [] }
        var found: [Int] = []
        folded.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { needle in
                var at = 0
                while let start = ByteSearch.firstIndex(of: needle, in: haystack, from: at) {
                    found.append(start)
                    at = start + 1
                }
            }
        }
        return found
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        firstIndex(of: needle, in: haystack) != nil
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        haystack.withUnsafeBytes { haystack in needle.withUnsafeBytes { ByteSearch.firstIndex(of: $0, in: haystack) } }
    }
}
