/// A user offered by the @mention picker, with how the query matched and what to highlight.
public struct MentionMatch: Hashable, Sendable {
    /// How a query matched a user; prefix kinds rank above fuzzy ones.
    public enum Kind: Hashable, Sendable {
        /// The query starts the handle (an empty query counts as this).
        case handlePrefix
        /// The query starts a word of the display name (it may run on into the following words).
        case namePrefix
        /// The query's characters appear in order in the handle or, failing that, the name.
        case fuzzy
    }

    /// The matched user.
    public var user: User
    /// How the query matched.
    var kind: Kind
    /// Matched parts of `user.handle`, as sorted, disjoint offsets into its `unicodeScalars`.
    public var handleHighlights: [Range<Int>]
    /// Matched parts of `user.name`, as sorted, disjoint offsets into its `unicodeScalars`.
    public var nameHighlights: [Range<Int>]

    public init(user: User, kind: Kind, handleHighlights: [Range<Int>] = [], nameHighlights: [Range<Int>] = []) {
        self.user = user
        self.kind = kind
        self.handleHighlights = handleHighlights
        self.nameHighlights = nameHighlights
    }
}
