import Foundation
import ThreadModel

/// Reactions: kept apart from the comments' text, and reported as a comment's counts
/// (`.reactionsChanged`), which the feed draws under the text without laying it out again.
extension MatrixTimeline {
    /// Adds a reaction met as newer; the target's new counts, unless it was known.
    mutating func react(eventID: String, _ reaction: MatrixReactions.Reaction) -> ThreadUpdate? {
        reactions.add(eventID: eventID, reaction) ? reactionsUpdate(of: reaction.target) : nil
    }

    /// Takes a redacted reaction away; its target's new counts, or nil when the event was no reaction.
    mutating func unreact(eventID: String) -> ThreadUpdate? {
        reactions.remove(eventID: eventID).map(reactionsUpdate(of:))
    }

    /// The counts of the reactions to an event, under the id the app knows it by.
    func reactionsUpdate(of target: String) -> ThreadUpdate {
        .reactionsChanged(commentID: commentID(forEvent: target), reactions.counts(of: target, me: members.me))
    }

    /// The most events with reactions kept while no comment is known for them (their comment
    /// may be in an older page; or never was one).
    static let mostLooseReactionTargets = 5000

    /// Drops the reactions to the events first reacted to longest ago past the bound of those
    /// whose comment is not known.
    mutating func boundLooseReactions() {
        guard reactions.targets.count > Self.mostLooseReactionTargets else { return }
        let loose = reactions.targets.filter { !knows($0) && $0 != postEventID }
        reactions.drop(oldestOf: Self.mostLooseReactionTargets, among: loose)
    }

    /// The counts of an event's reactions as read with it (no live change).
    func reactionsKnown(of target: String) -> ThreadUpdate {
        .reactionsKnown(commentID: commentID(forEvent: target), reactions.counts(of: target, me: members.me))
    }

    /// The counts of every event with reactions (what the opening page brought).
    func allReactionUpdates() -> [ThreadUpdate] {
        reactions.targets.sorted().map(reactionsKnown(of:))
    }
}
