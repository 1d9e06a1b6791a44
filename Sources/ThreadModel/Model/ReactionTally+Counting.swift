import Foundation

extension ReactionTally {
    /// Counts a file's reaction records one at a time, in file order, as `check` and `render`
    /// read them: a record counts only after its comment's line (as an edit does), by the rules
    /// of `ReactionTally.apply`; the others are named as problems. Nothing but the tally and the
    /// problems is kept, so records can stream past (a hostile file's million).
    public struct Counting {
        /// The line of each comment the file holds, by id (the first, for an id used twice).
        let commentLines: [String: Int]
        let isKnownUser: (String) -> Bool
        public private(set) var tally = ReactionTally()
        public private(set) var problems: [ThreadFileProblem] = []

        /// `isKnownUser` names reactions by someone with no user record (they count, as such
        /// comments show).
        public init(commentLines: [String: Int], isKnownUser: @escaping (String) -> Bool) {
            self.commentLines = commentLines
            self.isKnownUser = isKnownUser
        }

        /// Counts the record on `line`, or names why it does not count.
        public mutating func take(_ change: ReactionChange, line: Int) {
            guard let commentLine = commentLines[change.comment] else {
                return problems.append(ReactionChange.unknownCommentProblem(change, line: line))
            }
            guard commentLine < line else {
                return problems.append(ReactionChange.beforeCommentProblem(change, line: line, commentLine: commentLine))
            }
            if !isKnownUser(change.author) {
                problems.append(ThreadFileProblem(line: line, message: "\(change.recordType) by unknown user \"\(change.author)\" (no user record with that id)"))
            }
            problems += tally.apply([(change, line)])
        }

        /// The tally once every record is taken: a deleted comment keeps none.
        public func finish(deleted: Set<String>) -> (tally: ReactionTally, problems: [ThreadFileProblem]) {
            var tally = tally
            for id in deleted { tally.removeAll(of: id) }
            return (tally, problems)
        }
    }

    /// The tally of a file's reaction records (in file order) to its comments, and the
    /// problems of those that do not count (`Counting`). The one rule for the reader and `render`.
    public static func counting(_ records: [(change: ReactionChange, line: Int)], commentLines: [String: Int], deleted: Set<String>,
                                isKnownUser: @escaping (String) -> Bool) -> (tally: ReactionTally, problems: [ThreadFileProblem]) {
        var counting = Counting(commentLines: commentLines, isKnownUser: isKnownUser)
        for (change, line) in records { counting.take(change, line: line) }
        return counting.finish(deleted: deleted)
    }
}

extension ReactionChange {
    /// The problem of a reaction on a line before its comment's: readers ignore it, as an edit there.
    public static func beforeCommentProblem(_ change: ReactionChange, line: Int, commentLine: Int) -> ThreadFileProblem {
        ThreadFileProblem(line: line, message: "\(change.recordType) of comment \"\(change.comment)\": reaction before its comment (line \(commentLine)), ignored")
    }
}
