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
        let slot = FileReactionState.slot(commentID, key)
        // A second toggle before the first is read back would write the same again.
        guard !reactionState.onTheirWay.contains(slot) else { return .refused("\(key) is still on its way") }
        let removes = reactionState.tally.contains(key, by: reader, on: commentID)
        // To the second, as the file keeps it: the record read back is the one written.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let change = ReactionChange(comment: commentID, author: reader, created: now, key: key, removes: removes)
        // Past a bound readers would ignore it: said now rather than written and never shown.
        if let refusal = reactionState.tally.refusal(for: change) { return .refused(refusal) }
        // A file that does not know the reader (it was replaced by one without them) gets their
        // user record first, as with a comment, so it stays self-describing.
        let introduction = following?.appender.pendingIntroduction(for: reader)
        do {
            let records = (introduction.map { [ThreadRecord.user($0.user)] } ?? []) + [.reaction(change)]
            try ThreadFileWriter(path: path, lockTries: Self.changeLockTries).append(records)
        } catch {
            return .refused("\(error)")
        }
        if let introduction { following?.appender.introduced(generation: introduction.generation) }
        reactionState.onTheirWay.insert(slot)
        return removes ? .removing : .adding
    }

    public func readerIs(_ userID: String) { reactionState.reader = userID }

    /// Who reacted to a comment with each key (user ids), as the file's records leave it.
    public func reactors(of commentID: String) -> [(key: String, authors: [String])] {
        reactionState.tally.reactors(of: commentID)
    }
}
