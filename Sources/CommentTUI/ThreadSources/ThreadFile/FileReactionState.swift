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
    /// The comments appended since the index was read, by id: a reaction after one counts.
    private var appendedComments: Set<String> = []
    /// Whether the index holds a comment, by id, as looked up for the reactions arriving.
    private var indexHolds: [String: Bool] = [:]
    /// The most lookups kept: a writer naming ever new ids costs a lookup each, not memory.
    static let mostLookupsKept = 4096

    /// The key of a comment's reaction with a key.
    static func slot(_ commentID: String, _ key: String) -> String { commentID + "\u{0}" + key }

    /// Counts the reactions an index read; they are said by the next `takeOpening()`.
    mutating func count(_ index: ThreadIndex) {
        tally = index.reactions
        onTheirWay = []
        appendedComments = []
        indexHolds = [:]
        openingUnsaid = !tally.isEmpty
    }

    /// The counts read with the file, once, as `.reactionsKnown` (no flash).
    mutating func takeOpening() -> [ThreadUpdate] {
        guard openingUnsaid else { return [] }
        openingUnsaid = false
        let me = reader ?? ""
        return tally.commentIDs.sorted().map { .reactionsKnown(commentID: $0, tally.counts(of: $0, me: me)) }
    }

    /// The reactions an append brought, applied: a comment's new counts for each change. A
    /// reaction counts only after its comment, as readers count them: one naming a comment
    /// neither `index` nor an earlier append holds is left out (`check` names it). A comment
    /// appended with reactions counted to its id already (they came before it) starts afresh.
    mutating func updates(from appended: ThreadFileUpdate, index: ThreadIndex) -> [ThreadUpdate] {
        var updates: [ThreadUpdate] = []
        for (record, _) in appended.records {
            switch record {
            case .comment(let comment):
                guard !appendedComments.contains(comment.id) else { continue }
                appendedComments.insert(comment.id)
                guard tally.holds(comment.id), !holds(comment.id, in: index) else { continue }
                tally.removeAll(of: comment.id)
                updates.append(.reactionsKnown(commentID: comment.id, []))
            case .reaction(let change):
                if change.author == reader { onTheirWay.remove(Self.slot(change.comment, change.key)) }
                guard appendedComments.contains(change.comment) || holds(change.comment, in: index),
                      tally.apply(change).changed else { continue }
                updates.append(.reactionsChanged(commentID: change.comment, tally.counts(of: change.comment, me: reader ?? "")))
            default:
                continue
            }
        }
        return updates
    }

    /// Whether the index holds a comment with this id (looked up once, newest first).
    private mutating func holds(_ id: String, in index: ThreadIndex) -> Bool {
        if let known = indexHolds[id] { return known }
        if indexHolds.count >= Self.mostLookupsKept { indexHolds = [:] }
        let found = index.containsReactionTarget(id: id)
        indexHolds[id] = found
        return found
    }
}
