import Foundation
import ThreadModel

/// A thread file's reactions: the reader's toggles are `react` / `unreact` records appended
/// under the file's lock, and every writer's come back through the follower as counts.
extension ThreadFileSource: Reacting {
    /// Appends the reader's reaction with `key` to a comment, or its taking back if they have
    /// it, at once (fsynced, the lock waited for about a second as for an edit). The counts come
    /// when the record is read back from the file, as anyone's: `.reactionsChanged`.
    public func toggleReaction(_ key: String, on commentID: String) -> ReactionToggle {
        guard following != nil, tail != nil else { return .refused("this file is not followed: a reaction would not show") }
        guard let reader = reactionState.reader else { return .refused("the reader is not known") }
        if let problem = ReactionChange.keyProblem(key) { return .refused(problem) }
        let slot = ReactionState.slot(commentID, key)
        // A second toggle before the first is read back would write the same again.
        guard !reactionState.onTheirWay.contains(slot) else { return .refused("\(key) is still on its way") }
        let removes = reactionState.tally.contains(key, by: reader, on: commentID)
        // To the second, as the file keeps it: the record read back is the one written.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let change = ReactionChange(comment: commentID, author: reader, created: now, key: key, removes: removes)
        do {
            try ThreadFileWriter(path: path, lockTries: Self.changeLockTries).append([.reaction(change)])
        } catch {
            return .refused("\(error)")
        }
        reactionState.onTheirWay.insert(slot)
        return removes ? .removing : .adding
    }

    public func readerIs(_ userID: String) { reactionState.reader = userID }

    /// Who reacted to a comment with each key (user ids), as the file's records leave it.
    public func reactors(of commentID: String) -> [(key: String, authors: [String])] {
        reactionState.tally.reactors(of: commentID)
    }
}

/// What a thread file source keeps of reactions: their tally, the reader, and the reader's
/// toggles written and not read back yet.
struct ReactionState {
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
