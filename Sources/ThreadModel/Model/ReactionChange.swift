import Foundation

/// A person's reaction to a comment added or taken back, as a thread file keeps it: a record of
/// its own (`{"type":"react",…}`, `{"type":"unreact",…}`), so taking one back appends too and the
/// file stays append-only; readers count what the records leave (`ReactionTally`).
public struct ReactionChange: Hashable, Sendable {
    /// The id of the comment reacted to.
    public var comment: String
    /// Who reacted (a user id).
    public var author: String
    /// When.
    public var created: Date
    /// The reaction: an emoji, or any short text (hostile, made safe only where it is drawn).
    public var key: String
    /// Whether the reaction is taken back (`unreact`) rather than added (`react`).
    public var removes: Bool

    public init(comment: String, author: String, created: Date, key: String, removes: Bool = false) {
        self.comment = comment
        self.author = author
        self.created = created
        self.key = key
        self.removes = removes
    }

    /// What a record's type calls the change.
    public var recordType: String { removes ? "unreact" : "react" }

    /// The longest key kept, in UTF-8 bytes, as for a room's reactions.
    public static let longestKey = 256

    /// Why a key cannot be a reaction (empty, too long, holding control or invisible format
    /// characters a reader could be fooled by), or nil: readers skip such records and `check` names them.
    public static func keyProblem(_ key: String) -> String? {
        if key.isEmpty || key.unicodeScalars.allSatisfy(\.properties.isWhitespace) { return "key is empty" }
        if key.utf8.count > longestKey { return "key of \(key.utf8.count) bytes is over the \(longestKey)-byte limit" }
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "key holds control characters"
        }
        if VisibleControls.sanitize(key) != key { return "key holds invisible or bidi control characters" }
        return nil
    }

    /// The problem of a reaction whose comment no line of the file holds.
    public static func unknownCommentProblem(_ change: ReactionChange, line: Int) -> ThreadFileProblem {
        ThreadFileProblem(line: line, message: "\(change.recordType) of comment \"\(change.comment)\", which the file does not hold, ignored")
    }
}
