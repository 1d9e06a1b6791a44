import Foundation
import ThreadModel

/// The thread's side: sending the draft, and taking what the source reports.
extension CommentApp {
    /// Sends the draft as a comment of `me`; a failure keeps the draft and says why.
    func send() {
        if editing != nil { return finishEditing() }
        guard let body = composer.bodyToSend else { return retryFailedSend() }
        // Whole seconds: what a thread file stores, so the feed shows the same time after a reload.
        let created = Date(timeIntervalSince1970: wallTime.timeIntervalSince1970.rounded(.down))
        let comment = Comment(id: ThreadFileWriter.newCommentID(), author: me.id, created: created, body: body)
        // Saved first with the comment's id: if the client dies after the append, before the
        // draft is deleted, the next start sees the comment in the thread and drops the draft.
        composer.markSending(comment.id)
        switch source.send(comment, inReplyTo: replyingTo) {
        case .failed(let failure):
            composer.markSending(nil)
            return overlays.show("not sent, draft kept: \(failure.message)", error: true)
        case .confirmed:
            overlays.show(source.keepsCommentsInMemoryOnly ? "posted (in memory only)" : "posted")
            feed.commentsInserted(1, at: comments.insert([comment]), countAsNew: false)
        case .pending:
            deliveries[comment.id] = .sending
            overlays.show("sending…")
            // Last until the source places it: others may land in the thread before it.
            comments.appendWaiting(comment)
            feed.commentsAppended(1, countAsNew: false)
        }
        replyingTo = nil
        demoCompanion?.heard(at: now)
        composer.clearAfterSending()
        feed.scrollToBottom()
    }

    /// Takes what the source reports: new comments (each once: our own come back as echoes,
    /// which put them at their place in the thread), older pages, edits, users, the fate of sent
    /// comments, problems, the thread read again.
    ///
    /// While the feed rests at the bottom it follows; elsewhere the status bar counts the new
    /// comments instead of moving the reading position.
    public func receive(_ updates: [ThreadUpdate]) {
        var added = 0
        var usersChanged = false
        var arrivals: [(comment: Comment, mentionsMe: Bool)] = []
        // The linked comment may come as new (a catch-up) rather than in an older page.
        var linkedMayHaveCome = false, gapFilled = false
        for update in updates {
            switch update {
            case .usersChanged(let users):
                comments.add(users)
                usersChanged = true
            case .membersChanged(let joined, let left):
                comments.membersChanged(joined: joined, left: left)
                mentions.usersChanged()
            case .headerChanged(let title, let body):
                comments.retitle(title, body: body)
                feed.invalidateLayouts()
            case .commentsAppended(let list):
                // Runs of new comments go in together, above ours still on their way; an echo
                // of ours between them puts it where it landed.
                var fresh: [Comment] = []
                func insertFresh() {
                    guard !fresh.isEmpty else { return }
                    let at = comments.insert(fresh)
                    feed.commentsInserted(fresh.count, at: at, countAsNew: true)
                    if let other = fresh.firstIndex(where: { $0.author != me.id }) { feed.unreadArrived(at: at + other) }
                    added += fresh.count
                    fresh = []
                }
                for comment in list {
                    guard !comments.containsAdded(id: comment.id) else {
                        insertFresh()
                        place(comment.id)
                        continue
                    }
                    fresh.append(comment)
                    guard comment.author != me.id else { continue }
                    // The source is asked first, always: it forgets the comment once asked.
                    let called = source.readerMentions?.callsForReader(comment) ?? false
                    let mentioned = called || mentionsMe(comment)
                    // What a reopening catches up on (written before it) was not live: no bell,
                    // as none rings for the comments a fresh opening loads.
                    if !isCaughtUpOn(comment) {
                        if mentioned { overlays.ringBell() }
                        weighNotification(for: comment, callsForReader: mentioned)
                    }
                    arrivals.append((comment, mentioned))
                }
                insertFresh()
                linkedMayHaveCome = true
            case .readMarkerInOlder(let id):
                feed.readMarkerInNextPage(after: id)
            case .readMarkerMovedElsewhere(let id):
                if let position = comments.index(ofComment: id) { feed.readMarkerMovedElsewhere(to: position) }
            case .olderComments(let list, let hasMore):
                // Ctrl-Home goes on to the post while the reader is still up there waiting.
                let goesOnToTop = seeksTop && feed.anchor.comment < Self.olderPageMargin
                comments.prepend(list, hasMore: hasMore)
                feed.commentsPrepended(list.count)
                isLoadingOlder = false
                let walked = seeksTop
                seeksTop = goesOnToTop && hasMore
                if goesOnToTop { feed.scrollToTop() }
                if walked { walkGoesOn(seeksTop) }
                if let id = seeksReplied { olderPageArrived(seeking: id, in: list, hasMore: hasMore) }
                if let id = seeksLinked { linkedPageArrived(seeking: id, in: list, hasMore: hasMore) }
            case .replyTargetLoaded(let id, let target):
                replyTargetLoaded(id, target)
            case .gap(let id):
                comments.appendGap(id: id)
                feed.commentsAppended(1, countAsNew: false)
                feed.unreadArrived(at: comments.count - 1)
            case .gapFilled(let id, let list, let closed):
                if let change = comments.fillGap(id: id, with: list, closed: closed) {
                    feed.commentsReplaced(at: change.index, removed: change.removed, inserted: change.inserted)
                }
                linkedMayHaveCome = true
                gapFilled = true
            case .commentEdited(let comment):
                comments.replace(comment)
                // An edited or deleted target is quoted anew.
                replyTargets[comment.id] = nil
                feed.invalidateLayouts()
                feed.searchCommentEdited()
            case .commentChanged(let change):
                receiveChange(change)
            case .reactionsChanged(let id, let counts):
                // New when a key gained people (not when one was taken back).
                let before = Dictionary((reactions[id] ?? []).map { ($0.key, $0.count) }, uniquingKeysWith: max)
                // No more than a row looks at: a hostile room's thousands of keys cost nothing here.
                reactions[id] = counts.isEmpty ? nil : Array(counts.prefix(ReactionRow.maxKeys))
                feed.reactionsChanged(of: id, isNew: counts.contains { $0.count > before[$0.key] ?? 0 })
            case .reactionsKnown(let id, let counts):
                // Read with the room (its opening, an older page): shown, not flashed.
                reactions[id] = counts.isEmpty ? nil : Array(counts.prefix(ReactionRow.maxKeys))
                feed.reactionsChanged(of: id)
            case .postSummaryChanged(let id, let summary):
                postSummaries[id] = summary
                // Drawn anew under the root's text, as reactions are.
                feed.reactionsChanged(of: id)
            case .sendConfirmed(let id):
                place(id)
                if deliveries.removeValue(forKey: id) != nil { overlays.show("posted") }
            case .sendFailed(let id, let failure):
                guard deliveries[id] != nil else { continue }
                deliveries[id] = .failed(reason: failure)
                feed.invalidateLayouts()
                overlays.show(Self.notSentNotice(failure.message, retries: sendingHeld == nil), error: true)
            case .problem(let problem):
                overlays.show(problem.message, error: true)
                linkedLoadFailed(problem)
            case .connection(let state):
                connection = state
            case .typing(let users):
                typingUsers = users
            case .sendingHeld(let notice):
                sendingHeld = notice
                overlays.show(notice, error: true)
            case .caughtUp:
                feed.catchUpEnded()
                if let unreadNotice { overlays.show(unreadNotice) }
                if linkedMayHaveCome { linkedArrivalsCame(gapFilled: gapFilled) }
                linkedMayHaveCome = false
                linkedCatchUpEnded()
            case .reopened(let reason):
                reopenThread()
                usersChanged = true
                added = 0
                arrivals = []
                overlays.show(reason, error: true)
            }
        }
        // New users need a new ranker (and may turn `@handle` text on screen into mentions);
        // new comments only change who wrote last.
        if usersChanged {
            mentions.usersChanged()
            feed.invalidateLayouts(keepingShownParts: false)
        } else if added > 0 {
            mentions.commentsAdded()
        }
        if linkedMayHaveCome { linkedArrivalsCame(gapFilled: gapFilled) }
        for arrival in arrivals where !isCaughtUpOn(arrival.comment) {
            if arrival.mentionsMe { mentionArrivals.append(arrival.comment.id) }
            arrivalObserver?(arrival.comment, arrival.mentionsMe)
        }
        // A few comments come in with a transition; a catch-up of many shows at once.
        if arrivals.count <= FeedModel.arrivalsShownMoving {
            for arrival in arrivals { feed.showArrival(of: arrival.comment, mentionsReader: arrival.mentionsMe) }
        }
        prepare()
    }

    /// Whether a comment arrived in a catch-up, written before the source opened: not live, so it
    /// rings no bell (as none rings for the comments a fresh opening loads).
    private func isCaughtUpOn(_ comment: Comment) -> Bool {
        source.catchingUp?.openedAt.map { comment.created < $0 } ?? false
    }

    /// A comment of ours reached the thread: it moves to where it landed, if others of ours
    /// still on their way were above it.
    private func place(_ id: String) {
        guard let move = comments.place(id: id) else { return }
        feed.commentMoved(from: move.from, to: move.to)
    }

    /// Holds the thread as the source read it again from its start; ours still on their way stay.
    private func reopenThread() {
        var thread = source.thread
        rejoin(thread)
        if thread.user(id: me.id) != me { thread.add(me) }
        comments.reopen(thread: thread, opened: source.openedComments, hasOlder: source.olderPages?.hasOlderComments ?? false,
                        isInThread: source.containsComment(id:))
        for id in deliveries.keys where !comments.containsAdded(id: id) { deliveries[id] = nil }
        feed.threadReopened()
    }

    /// The reader in a thread read anew, found as at opening, by handle: the new file may know
    /// them by another id, or not at all (then they join under their own id, or a new one if
    /// someone else has theirs, and the source writes their user record before their next
    /// comment), so a comment is never written under an id the file gives no one, or another.
    private func rejoin(_ thread: CommentThread) {
        let old = me
        let known = thread.user(handle: me.handle)
        let reader = known ?? (thread.user(id: me.id) == nil ? me : User(id: ThreadFileWriter.newUserID(), handle: me.handle, name: me.name))
        if reader.id != old.id {
            me = reader
            feed.me = reader.id
            mentions.me = reader.id
            // Ours still on their way show, and go, under the id the file knows (the reopen
            // that follows lays every comment out again).
            comments.reassignWaiting(from: old.id, to: reader.id)
        }
        source.readerChanged(from: old.id, to: reader, introducing: known == nil)
    }

    /// At quit: the comments the source will not deliver once the client is gone (a file's
    /// appends still waiting for its lock, or failed) go back into the draft, before what was
    /// typed since, so the draft saved at exit holds them: quitting never waits for the lock,
    /// and an unsent comment is never lost.
    public func keepUnsentInDraft() {
        // An edit holds the composer and its save is set aside: the draft comes back first, so
        // what is withdrawn joins it and is saved (the edit itself is left, as Esc leaves it).
        endEditing()
        // Only the reader's own (under any id they had): the demo's companion posts through the
        // source too.
        let unsent = source.withdrawUnsent().filter { $0.author != demoCompanion?.author.id }
        guard !unsent.isEmpty else { return }
        let typed = composer.bodyToSend == nil ? [] : [composer.draft.markdown]
        composer.replaceAll(withEdited: (unsent.map(\.body) + typed).joined(separator: "\n\n"), handles: comments.handleID)
    }

    /// Enter with nothing to send: the comment not sent goes again (the selected one, else the
    /// oldest; same id, so a source that de-duplicates posts it once).
    private func retryFailedSend() {
        guard let comment = notSentTarget?.comment else { return }
        let id = comment.id
        deliveries[id] = .sending
        feed.invalidateLayouts()
        switch source.send(comment) {
        case .failed(let failure):
            deliveries[id] = .failed(reason: failure)
            overlays.show(Self.notSentNotice(failure.message, retries: sendingHeld == nil), error: true)
        case .confirmed:
            deliveries[id] = nil
            place(id)
            overlays.show("posted")
        case .pending:
            overlays.show("sending again…")
        }
    }

    /// Whether a comment's body mentions the reader (an `@handle` the markup recognises).
    private func mentionsMe(_ comment: Comment) -> Bool {
        guard comment.body.contains("@" + me.handle) else { return false }
        // Only what the feed lays out (`ShownBody`): a huge body is not parsed whole on arrival.
        let shown = ShownBody(comment.body, limit: FeedLayout.shownBodyBytes).text
        let text = CommentMarkup.parseRuns(shown, handles: { self.comments.handleID($0) })
        return text.runs.contains { $0.style.mention == me.id }
    }

    /// Shows the problems found while the thread was opened (torn or malformed lines, duplicate
    /// handles): the first with its line, and where to see them all.
    func reportOpeningProblems(_ problems: [ThreadFileProblem]) {
        guard let first = problems.first else { return }
        let label = source.label
        let more = problems.count > 1 ? " (and \(problems.count - 1) more: comment-tui check \(label))" : ""
        overlays.show("\(label) line \(first.line): \(first.message)\(more)", error: true)
    }

    /// Saves the read marker through the source (at exit).
    public func saveReadMarker() throws {
        if let marker = feed.readMarker { try source.saveReadMarker(marker) }
    }
}

