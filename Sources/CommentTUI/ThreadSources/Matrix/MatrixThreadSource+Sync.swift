import Foundation
import ThreadModel

/// Following the room: each answer of the account's sync (`MatrixAccountSync`, which decides
/// tokens, backoff, 429 waits and stalls) applied to the room's timeline, gaps filled or marked;
/// older pages on demand.
extension MatrixThreadSource {
    /// Seconds a long poll waits on the server for something new.
    static let pollSeconds = 30
    /// The longest wait between reconnection attempts.
    static let longestRetry = 30.0
    /// Events asked for per page while filling a gap, and pages per fill as the reader nears it.
    static let gapPageSize = 100
    static let gapPagesPerFill = 5

    /// Sets the connection's state and queues it for the app, both under the lock, so states
    /// set from two threads reach the app in the order they were set.
    func setConnection(_ state: ConnectionState) {
        let changed = locked { () -> Bool in
            guard connection != state else { return false }
            connection = state
            queued.append(.connection(state))
            return true
        }
        if changed { wake.wake() }
    }

    /// The server answered a request other than a sync (a send): the account's sync hears of
    /// it, and the connection is live (unless that sync is overdue or rate limited), and a sync
    /// waiting out its backoff tries again now rather than up to 30 s later.
    func connectionProven() {
        accountSync.sendProven()
    }

    /// Takes one sync answer: the room's timeline (a reported gap filled first if one page closes
    /// it, else marked), members, typing; then moves `next_batch`. Events already applied (the
    /// opening's, or a catch-up's, given again by the account's sync) are left out.
    /// - Parameter connection: the state the answer shows (`live`; a catch-up of the room's
    ///   own shows the account's sync's).
    func apply(sync answer: JSONValue, connection shown: ConnectionState = .live) throws {
        guard let next = answer["next_batch"]?.string else {
            throw MatrixError(.malformed, "the homeserver's sync had no next_batch")
        }
        var updates: [ThreadUpdate] = []
        var remembered: (updates: [ThreadUpdate], batchStart: String?)?
        var markerElsewhere: String?
        if let room = answer["rooms"]?["join"]?[roomID] {
            let window = room["timeline"]?["events"]?.array ?? []
            var events = locked { window.filter { !timeline.hasApplied($0) } }
            let state = room["state"]?["events"]?.array ?? []
            var batchStart = room["timeline"]?["prev_batch"]?.string
            // A switch to encryption in this sync holds sending at once, not after a gap's pages.
            let switched = locked { timeline.switchEncryptionOn(ifAmong: state + events) }
            report(switched)
            // A limited window that holds an event applied already as newer joins what the room
            // has: nothing is missing before it (an initial sync answered after the room opened
            // repeats its newest events, `limited` because the room has older ones). One only
            // known from the offline copy or a send's answer proves nothing: the copy's position
            // may be older than it.
            let overlaps = locked { window.contains(where: timeline.wasAppliedAsNewer) }
            if room["timeline"]?["limited"]?.bool == true, !overlaps, let gapStart = batchStart {
                // One page closes most gaps (a short sleep); a longer absence is marked and filled
                // as the reader scrolls to it, so the newest comments show at once.
                let fill = try read(GapFill(before: gapStart, pages: 1, pageSize: Self.gapPageSize))
                events = fill.missing + events
                if let rest = fill.rest {
                    let id = "gap-\(UUID().uuidString)"
                    locked {
                        gaps[id] = fill.resumed(pages: Self.gapPagesPerFill)
                        // The offline copy cannot hold a gap: it starts again after this one.
                        cached = ([], restartToken(rest))
                    }
                    updates.append(.gap(id: id))
                    batchStart = rest
                }
            }
            noteCalls(events: events, state: state)
            refetchChangedTargets(events)
            let lastBefore = locked { cached.comments.last?.id }
            let applied = locked { timeline.applyNewer(events, state: state) }
            confirmGivenUp(applied)
            recountStalePosts(limitedSync: room["timeline"]?["limited"]?.bool == true ? events : nil)
            remembered = (switched + applied, batchStart)
            updates += applied
            updates += locked { timeline.postsRead(in: room) }
            updates += roomStateUpdates(events: events, state: state)
            markerElsewhere = movedMarker(in: room, events: events, applied: applied, lastBefore: lastBefore)
                ?? movedPostReceipt(in: room, events: events, applied: applied, lastBefore: lastBefore)
            for event in room["ephemeral"]?["events"]?.array ?? [] where event["type"]?.string == "m.typing" {
                let typing = (event["content"]?["user_ids"]?.array ?? []).compactMap(\.string).filter { $0 != me }
                updates.append(.typing(typing))
            }
        } else if answer["rooms"]?["leave"]?[roomID] != nil {
            updates.append(.problem(ThreadProblem(.threadGone, "you are no longer in \(label)")))
        }
        // Keys that came with this answer open the rows that waited for them, in place.
        updates += locked { timeline.decryptWaiting() + timeline.identityUpdates() }
        let (wentLive, caughtUp) = locked { () -> (Bool, Bool) in
            nextBatch = next
            if shown == .live { heardFrom = Date() }
            defer { connection = shown; hasCaughtUp = true }
            return (connection != shown, !hasCaughtUp)
        }
        // Saved after `next_batch` moved, so a reopened copy resumes after these comments.
        if let remembered { remember(remembered.updates, batchStart: remembered.batchStart) }
        // Live in the same report as what the sync brought, so the status bar never says offline
        // over comments that just arrived; caught up after them, so the app places the divider
        // above the first of those written while the room was closed.
        var reported: [ThreadUpdate] = wentLive ? [.connection(shown)] : []
        reported += updates
        if caughtUp, let markerElsewhere { reported.append(.readMarkerMovedElsewhere(after: markerElsewhere)) }
        if caughtUp { reported.append(.caughtUp) }
        report(reported)
    }

    /// The comment `m.fully_read` stands after when, at the catching-up sync, another client
    /// moved it while the room was closed (a reopen from the offline copy; an opening without
    /// it reads the marker from the server as it is): on a comment, or the last at or before
    /// its event in this sync (`lastBefore`, the newest kept, when none is). Nil otherwise.
    private func movedMarker(in room: JSONValue, events: [JSONValue], applied: [ThreadUpdate], lastBefore: String?) -> String? {
        // `m.fully_read` is the room's own timeline's: a post's divider follows its receipt (`movedPostReceipt`).
        guard isFromCache, !locked({ hasCaughtUp || timeline.scope.root != nil }) else { return nil }
        let accountData: [JSONValue] = room["account_data"]?["events"]?.array ?? []
        let inSync = accountData.filter { $0["type"]?.string == "m.fully_read" }.last?["content"]?["event_id"]?.string
        // Synapse's catching-up sync from the copy's token was seen without the room's account
        // data although the marker had moved: asked for once when the sync does not say.
        guard let marker = inSync ?? (try? client.fullyRead(room: roomID, userID: me)), marker != locked({ markerSent }) else { return nil }
        return commentAtOrBefore(marker, events: events, applied: applied, lastBefore: lastBefore)
    }

    /// `fill` carried out: the pages it names asked for until it is done, its `missing` the
    /// events newer than all known, its `rest` where the ones still missing end (nil: none are).
    /// `GapFill` decides what to ask and when it is done; this only asks.
    private func read(_ fill: GapFill) throws -> GapFill {
        var fill = fill
        while let request = fill.request {
            let page = try gapPage(from: request.from, limit: request.limit)
            let known = locked { Set(page.events.compactMap { $0["event_id"]?.string }.filter(timeline.hasApplied(eventID:))) }
            fill.answered(events: page.events, end: page.end, known: known)
        }
        return fill
    }

    /// Loads comments missing at a gap: a few pages back from where they end, reported as
    /// `.gapFilled` (the gap stays open above them if more are missing).
    public func fillGap(_ id: String) {
        workQueue.async { [weak self] in
            guard let self, let next = self.locked({ self.gaps[id] }) else { return }
            do {
                let fill = try self.read(next)
                let applied = self.locked { () -> [ThreadUpdate] in
                    self.gaps[id] = fill.resumed(pages: Self.gapPagesPerFill)
                    return self.timeline.applyNewer(fill.missing)
                }
                // What the timeline would append belongs in the gap's place; edits and the rest follow.
                let comments = applied.flatMap { update -> [Comment] in if case .commentsAppended(let list) = update { list } else { [] } }
                let others = applied.filter { if case .commentsAppended = $0 { false } else { true } }
                self.report([.gapFilled(id: id, comments: comments, closed: fill.rest == nil)] + others)
                self.recountStalePosts()
            } catch {
                if self.stopped { return }
                self.report([.problem(ThreadProblem(.notLoaded, "could not load the messages missed: \(error)"))])
                _ = self.pause(2)
                self.report([.gapFilled(id: id, comments: [], closed: false)])
            }
        }
    }

    // MARK: Older comments

    public func loadOlderComments() {
        let token: String? = locked {
            guard !isLoadingOlder, let token = olderToken else { return nil }
            isLoadingOlder = true
            return token
        }
        guard let token else { return }
        workQueue.async { [weak self] in self?.loadPage(from: token) }
    }

    /// One page of events before `token`, read into the timeline: its comments oldest first, the
    /// member changes it brought, and where the page before it starts (nil at the room's start).
    /// `events`: the page's event ids, newest first (any event: the read marker may be on one).
    func olderPage(from token: String, limit: Int) throws -> (comments: [Comment], updates: [ThreadUpdate], end: String?, events: [String]) {
        if let root = locked({ timeline.scope.root }), let relations = MatrixThreadPage.relationsToken(token) {
            return try olderReplies(root: root, from: relations, limit: limit)
        }
        let page = try client.messages(room: roomID, from: token, backwards: true, limit: limit, filter: ["lazy_load_members": true])
        let (applied, root) = locked { (timeline.applyOlder(page.events, state: page.state), timeline.scope.root) }
        // A post's room token (kept by an older copy) pages the room only back to the post's root.
        let end = MatrixThreadPage.roomPageEnd(page.end, events: page.events, root: root)
        return (applied.comments, applied.updates, end, page.events.compactMap { $0["event_id"]?.string })
    }

    /// Pages back until a page has comments or the room's start; reports them as one page.
    private func loadPage(from token: String) {
        var from: String? = token
        var comments: [Comment] = []
        var updates: [ThreadUpdate] = []
        var marker = OlderReadMarker(eventID: locked { markerInOlder })
        // Kept with `olderToken` only when the load succeeds: a page retried after an error is no circle.
        var walk = locked { olderWalk }
        do {
            // Pages of only state events (joins, renames) bring no comments: keep going a little.
            for _ in 0..<5 where comments.isEmpty {
                guard let start = from else { break }
                let page = try olderPage(from: start, limit: Self.pageSize)
                updates += page.updates
                marker.look(in: page.events, comments: page.comments)
                comments = page.comments + comments
                from = walk.page(from: start, gave: page.end)
            }
        } catch {
            if stopped { return }
            report([.problem(ThreadProblem(.notLoaded, "could not load older comments: \(error)"))])
            _ = pause(2)
            locked { isLoadingOlder = false }
            report([.olderComments([], hasMore: true)])
            return
        }
        let hasMore = locked { () -> Bool in
            olderToken = from
            olderWalk = walk
            isLoadingOlder = false
            if marker.isFound { markerInOlder = nil }
            return from != nil
        }
        let found: [ThreadUpdate] = marker.isFound ? [.readMarkerInOlder(after: marker.commentID)] : []
        report(updates + found + [.olderComments(comments, hasMore: hasMore)])
        restoreWaitingKeysFromBackup()
    }
}
