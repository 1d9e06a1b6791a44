import ThreadModel

extension ThreadFileSource {
    /// The inotify watch of the file (or, if following failed at once, a pipe woken to say so);
    /// the same descriptor for the source's life. Nil when opened without following.
    public var updatesReady: FileDescriptor? {
        switch readiness {
        case .watch(let watch): watch.descriptor
        case .wake(let pipe): pipe.readEnd
        case nil: nil
        }
    }

    /// What other writers (and our own sends) appended since the last call: the batch's users
    /// as one `.usersChanged`, then its comments as one `.commentsAppended` (none skipped: our
    /// own echoed posts are for the app to recognise by id), then a `.problem` per line that did
    /// not read. A failure to follow (the file shrank or vanished) is reported once as
    /// `.problem("stopped following: …")`; after it the watch is only drained.
    public func takeUpdates() -> [ThreadUpdate] {
        // Drain first, then read: an append after the read makes the descriptor readable again.
        switch readiness {
        case .watch(let watch): watch.drain()
        case .wake(let pipe): pipe.drain()
        case nil: return []
        }
        if let failure = unreportedFailure {
            unreportedFailure = nil
            return [.problem(failure)]
        }
        guard let tail else { return [] }
        do {
            return Self.updates(from: try tail.readAppended(), label: label)
        } catch {
            // Keep what is on screen; the watch stays open (a loop may have registered it).
            self.tail = nil
            return [.problem("stopped following: \(error)")]
        }
    }

    /// The records of an append as updates. A second thread header is ignored: a thread has one,
    /// and `check` reports the extra.
    static func updates(from appended: ThreadFileUpdate, label: String) -> [ThreadUpdate] {
        var users: [User] = []
        var comments: [Comment] = []
        for (record, _) in appended.records {
            switch record {
            case .user(let user): users.append(user)
            case .comment(let comment): comments.append(comment)
            case .thread: break
            }
        }
        var updates: [ThreadUpdate] = []
        // Users first: a comment's author may have joined in the same append.
        if !users.isEmpty { updates.append(.usersChanged(users)) }
        if !comments.isEmpty { updates.append(.commentsAppended(comments)) }
        updates += appended.problems.map { .problem("\(label) line \($0.line): \($0.message)") }
        return updates
    }
}
