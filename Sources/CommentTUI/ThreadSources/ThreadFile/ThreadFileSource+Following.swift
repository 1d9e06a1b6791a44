import ThreadModel

extension ThreadFileSource {
    /// What a followed source keeps for its life: the file's watch, the pipe its appender (and a
    /// failure to follow) wakes, one descriptor over both for the loop, and the appender.
    final class Following {
        /// The file's and its directory's watch; nil when it could not start.
        let watch: FileWatch?
        /// Woken when an append ends, and once when following could not start.
        let wake: WakePipe
        /// Appends our comments off the UI thread.
        let appender: ThreadFileAppender
        /// Why following could not start, if it could not.
        let startFailure: String?
        private let members: DescriptorSet?

        /// With the watch made (or the reason it was not).
        init(path: String, watch made: Result<FileWatch, Error>) throws {
            wake = try WakePipe()
            appender = ThreadFileAppender(path: path, wake: wake)
            var failure: String?
            do {
                let watch = try made.get()
                members = try DescriptorSet([watch.descriptor, wake.readEnd])
                self.watch = watch
            } catch {
                (watch, members) = (nil, nil)
                failure = "stopped following: \(error)"
                wake.wake()
            }
            startFailure = failure
        }

        /// The descriptor the loop polls: the same for the source's life.
        var descriptor: FileDescriptor { members?.descriptor ?? wake.readEnd }

        /// Empties the watch and the pipe (before looking at what they were for).
        func drain() {
            watch?.drain()
            wake.drain()
        }
    }

    /// Readable when updates wait (the file changed, an append ended); the same descriptor for
    /// the source's life. Nil when opened without following.
    public var updatesReady: FileDescriptor? { following?.descriptor }

    /// What changed since the last call: other writers' and our own appends as read from the
    /// file (the batch's users as one `.usersChanged`, then its comments as one
    /// `.commentsAppended`, then a `.problem` per line that did not read), then how our appends
    /// ended (`.sendConfirmed`, `.sendFailed`). A replaced or cut file is read again from its
    /// start (`.reopened`); a removed one is said once and stays on screen. A failure to follow
    /// is reported once as `.problem("stopped following: …")`; after it the watch is only
    /// drained, until the path names another file.
    public func takeUpdates() -> [ThreadUpdate] {
        guard let following else { return [] }
        // Drain first, then read: an append after the read makes the descriptor readable again.
        following.drain()
        var updates: [ThreadUpdate] = []
        if let failure = unreportedFailure {
            unreportedFailure = nil
            updates.append(.problem(ThreadProblem(.stoppedFollowing, failure)))
        }
        if let problem = outboxProblem {
            outboxProblem = nil
            updates.append(.problem(ThreadProblem(.notKept, problem)))
        }
        // Taken before the file is read: an append that ended is in the file by now, so its
        // echo comes first, at its place among other writers' records.
        let ended = following.appender.takeFinished()
        updates += reactionState.takeOpening()
        if following.watch != nil { updates += follow() }
        for outcome in ended {
            if let failure = outcome.failure {
                updates.append(.sendFailed(commentID: outcome.id, reason: SendFailure(.notWritable, failure)))
            } else {
                try? outbox?.markSent(outcome.id, event: Self.appended)
                updates.append(.sendConfirmed(commentID: outcome.id))
            }
        }
        return updates
    }

    /// What the file at the path brings: the appends to the file followed, or the file read again
    /// when the name now means another file or the file was cut.
    private func follow() -> [ThreadUpdate] {
        let named: FileIdentity?
        do {
            named = try FileSystem.identity(of: path)
        } catch {
            return []  // a name that cannot be looked up now (a directory made unreadable) keeps what is open
        }
        guard let current = named else {
            guard !saidRemoved else { return [] }
            saidRemoved = true
            return [.problem(ThreadProblem(.threadGone, "\(label) was removed: still showing what it held (posts fail until it is back)"))]
        }
        saidRemoved = false
        guard let tail else {
            guard let followed, current != followed else { return [] }
            return reopen(because: "\(label) was replaced by another file: showing the new one")
        }
        guard current == tail.identity else {
            return reopen(because: "\(label) was replaced by another file: showing the new one")
        }
        do {
            let appended = try tail.readAppended()
            return Self.updates(from: appended, label: label) + reactionState.updates(from: appended, index: index)
        } catch is ThreadFileTail.Cut {
            return reopen(because: "\(label) was cut short by another program: read again from the start")
        } catch {
            // Keep what is on screen; the watch stays open (a loop may have registered it).
            self.tail = nil
            return [.problem(ThreadProblem(.stoppedFollowing, "stopped following: \(error)"))]
        }
    }

    /// Indexes the file at the path from its start and follows it from where the index ends.
    private func reopen(because reason: String) -> [ThreadUpdate] {
        following?.watch?.rewatch()
        tail = nil
        do {
            // Replaced again between the index and the tail: the next look notices it.
            let identity = try FileSystem.identity(of: path)
            let index = try ThreadIndex.open(path: path)
            let tail = try ThreadFileTail(path: path, follower: index.follower)
            self.index = index
            thread = Self.thread(of: index)
            // Counted anew and said after `.reopened`, which forgets what the app held.
            reactionState.count(index)
            followed = identity
            if tail.identity == identity { self.tail = tail } else { following?.wake.wake() }
            return [.reopened(reason)] + reactionState.takeOpening()
        } catch {
            followed = (try? FileSystem.identity(of: path)) ?? nil
            following?.appender.failDeferred("the thread file was replaced and could not be read: \(error)")
            return [.problem(ThreadProblem(.stoppedFollowing, "stopped following: \(error)"))]
        }
    }

    /// The records of an append as updates. A second thread header is ignored: a thread has one,
    /// and `check` reports the extra.
    static func updates(from appended: ThreadFileUpdate, label: String) -> [ThreadUpdate] {
        var users: [User] = []
        var comments: [Comment] = []
        var changes: [CommentChange] = []
        for (record, _) in appended.records {
            switch record {
            case .user(let user): users.append(user)
            case .comment(let comment): comments.append(comment)
            case .change(let change): changes.append(change)
            case .thread, .reaction: break
            }
        }
        var updates: [ThreadUpdate] = []
        // Users first: a comment's author may have joined in the same append.
        if !users.isEmpty { updates.append(.usersChanged(users)) }
        if !comments.isEmpty { updates.append(.commentsAppended(comments)) }
        // After the comments: an edit may change one appended in the same batch.
        updates += changes.map(ThreadUpdate.commentChanged)
        updates += appended.problems.map { .problem(ThreadProblem(.unreadableLine, "\(label) line \($0.line): \($0.message)")) }
        return updates
    }
}
