/// A source whose comments take reactions from the reader (a room's `m.reaction`).
public protocol Reacting: AnyObject {
    /// Adds the reader's reaction with `key` to a comment, or takes it back if they reacted so
    /// already; the new counts come later as `.reactionsChanged`, a failure as `.problem`.
    func toggleReaction(_ key: String, on commentID: String) -> ReactionToggle
    /// The reader is `userID`: their reactions are written under it and marked as theirs (a
    /// thread file's; a room knows its reader and ignores this).
    func readerIs(_ userID: String)
    /// Who reacted to a comment (user ids) with each key, most people first, each key's people
    /// in the order they reacted; none when it has no reactions.
    func reactors(of commentID: String) -> [(key: String, authors: [String])]
}

extension Reacting {
    public func readerIs(_ userID: String) {}
    public func reactors(of commentID: String) -> [(key: String, authors: [String])] { [] }
}

/// What a reaction key did, at once.
public enum ReactionToggle: Equatable, Sendable {
    /// The reaction is on its way.
    case adding
    /// Its taking back is on its way.
    case removing
    /// The reaction was still waiting to be sent (offline): it is cancelled, never sent.
    case cancelled
    /// Nothing was sent, and why (an encrypted room, a comment not in the thread yet).
    case refused(String)
}
