/// One key of the reactions to a comment (an emoji, or any short text another client sent):
/// how many people reacted with it, and whether the reader is one of them.
public struct ReactionCount: Hashable, Sendable {
    /// The key as sent: hostile text, made safe only where it is drawn.
    public var key: String
    /// People who reacted with the key (each counted once).
    public var count: Int
    /// Whether the reader reacted with the key.
    public var includesMine: Bool

    public init(key: String, count: Int, includesMine: Bool) {
        self.key = key
        self.count = count
        self.includesMine = includesMine
    }
}
