/// The best matches of one @mention query and how many users matched in all.
public struct MentionResults: Hashable, Sendable {
    /// At most the asked-for number of matches, best first.
    public var matches: [MentionMatch]
    /// How many users matched, including those beyond the limit (for a "+N more" line).
    public var total: Int

    public init(matches: [MentionMatch], total: Int) {
        self.matches = matches
        self.total = total
    }
}
