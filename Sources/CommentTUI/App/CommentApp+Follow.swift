import ThreadModel

extension CommentApp {
    /// Takes what another writer appended to the thread file.
    ///
    /// Comments already in the thread (our own posts, which were added when sent) are skipped,
    /// so each appears once. While the feed rests at the bottom it follows; elsewhere the
    /// status bar counts the new comments instead of moving the reading position.
    public func receive(_ update: ThreadFileUpdate) {
        // The feed's model must exist before the thread grows, or it would count new comments twice.
        let scroll = feedScroll
        var added = 0
        var usersChanged = false
        for (record, _) in update.records {
            switch record {
            case .user(let user):
                thread.add(user)
                usersChanged = true
            case .comment(let comment):
                guard !thread.containsComment(id: comment.id) else { continue }
                thread.append(comment)
                added += 1
                if comment.author != me.id, mentionsMe(comment) { bellPending = true }
            case .thread:
                break   // a thread has one header; a second one is reported by `check`
            }
        }
        // New users need a new ranker; new comments only change who wrote last.
        if usersChanged { mentionRanker = nil } else if added > 0 { mentionRecencyIsStale = true }
        if usersChanged {
            // A new handle may turn `@handle` text of comments on screen into mentions.
            indexHandles()
            layoutCache?.invalidateAll()
        }
        if added > 0 {
            if !isFollowingBottom || feedScroll.model.phase != .idle { newCount += added }
            scroll.commentsAppended(added)
        }
        if let problem = update.problems.last {
            show("\(threadLabel) line \(problem.line): \(problem.message)", error: true)
        }
    }

    /// Whether a comment's body mentions the reader (an `@handle` the markup recognises).
    func mentionsMe(_ comment: Comment) -> Bool {
        guard comment.body.contains("@" + me.handle) else { return false }
        let text = CommentMarkup.parse(comment.body, handles: { self.handleID($0) })
        return text.runs.contains { $0.attributes[CommentAttributes.MentionAttribute.self] == me.id }
    }

    /// Shows the problems found while the file was opened (torn or malformed lines, duplicate
    /// handles): the first with its line, and where to see them all.
    public func reportOpeningProblems(_ problems: [ThreadFileProblem]) {
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more: comment-tui check \(threadLabel))" : ""
        show("\(threadLabel) line \(first.line): \(first.message)\(more)", error: true)
    }

    /// Reports a failure to follow the file.
    public func followFailed(_ error: Error) {
        show("stopped following: \(error)", error: true)
    }
}
