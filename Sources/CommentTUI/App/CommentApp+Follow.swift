import ThreadModel

extension CommentApp {
    /// Takes what another writer appended to the thread file.
    ///
    /// Comments already in the thread (our own posts, which were added when sent) are skipped,
    /// so each appears once. While the feed rests at the bottom it follows; elsewhere the
    /// status bar counts the new comments instead of moving the reading position.
    public func receive(_ update: ThreadFileUpdate) {
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
            case .thread:
                break   // a thread has one header; a second one is reported by `check`
            }
        }
        if usersChanged {
            // A new handle may turn `@handle` text of comments on screen into mentions.
            indexHandles()
            layoutCache?.invalidateAll()
        }
        if added > 0, !followsBottom { newCount += added }
        if let problem = update.problems.last {
            show("\(threadLabel) line \(problem.line): \(problem.message)", error: true)
        }
    }

    /// Reports a failure to follow the file.
    public func followFailed(_ error: Error) {
        show("stopped following: \(error)", error: true)
    }
}
