import Foundation
import ThreadModel

/// What a thread file source keeps of reactions: their tally, the reader, and the reader's
/// toggles written and not read back yet.
struct FileReactionState {
    /// The reactions as the records read so far leave them.
    var tally = ReactionTally()
    /// The reader's user id, once the app said it (their reactions are marked).
    var reader: String?
    /// The reader's toggles appended and not read back yet, by `slot`.
    var onTheirWay: Set<String> = []
    /// The counts read with the file (opened or read again) not said yet.
    private var openingUnsaid = false

    /// The key of a comment's reaction with a key.
    static func slot(_ commentID: String, _ key: String) -> String { commentID + "\u{0}" + key }

    /// Counts the reactions an index read; they are said by the next `takeOpening()`.
    mutating func count(_ index: ThreadIndex) {
        tally = ReactionTally()
        for (change, _) in index.reactionRecords { tally.apply(change) }
        onTheirWay = []
        openingUnsaid = !tally.isEmpty
    }

    /// The counts read with the file, once, as `.reactionsKnown` (no flash).
    mutating func takeOpening() -> [ThreadUpdate] {
        guard openingUnsaid else { return [] }
        openingUnsaid = false
        let me = reader ?? ""
        return tally.commentIDs.sorted().map { .reactionsKnown(commentID: $0, tally.counts(of: $0, me: me)) }
    }

    /// The reactions an append brought, applied: a comment's new counts for each change.
    mutating func updates(from appended: ThreadFileUpdate) -> [ThreadUpdate] {
        var updates: [ThreadUpdate] = []
        for case (.reaction(let change), _) in appended.records {
            if change.author == reader { onTheirWay.remove(Self.slot(change.comment, change.key)) }
            guard tally.apply(change).changed else { continue }
            updates.append(.reactionsChanged(commentID: change.comment, tally.counts(of: change.comment, me: reader ?? "")))
        }
        return updates
    }
}
