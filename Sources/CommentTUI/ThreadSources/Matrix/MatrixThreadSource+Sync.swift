import Foundation
import ThreadModel

/// Following the room: a long-poll loop on its own thread, resuming from `next_batch`, with
/// exponential backoff to 30 s when the homeserver is away and the wait a 429 asks for (at most
/// `longestRateLimitWait`), shown as `rate limited`.
extension MatrixThreadSource {
    /// Seconds a long poll waits on the server for something new.
    static let pollSeconds = 30
    /// The longest wait between reconnection attempts.
    static let longestRetry = 30.0
    /// Events asked for per page while filling a gap, and pages per fill as the reader nears it.
    static let gapPageSize = 100
    static let gapPagesPerFill = 5

    func startSyncing() {
        // Opening just talked to the server: the status bar says so from the first frame.
        report([.connection(isFromCache ? .connecting : .live)])
        let thread = Thread { [weak self] in self?.syncLoop() }
        thread.name = "comment-tui.matrix.sync"
        syncThread = thread
        thread.start()
    }

    private func syncLoop() {
        var delay = 1.0
        // The first sync after opening or a failure asks for no wait: `live` as soon as the server
        // answers, not when a long poll in a quiet room returns 30 s later.
        var wait = 0
        // What kind of failure (status and errcode) a sync failing for a reason other than the
        // network last told of: once, not at each retry, though its words may change (a redirect's
        // target).
        var told: MatrixError.Kind?
        while !stopped {
            let since = locked { nextBatch }
            do {
                let answer = try watchingForStall(wait: wait) {
                    try client.sync(since: since, filter: filter, wait: wait, margin: syncDeadlineMargin)
                }
                delay = 1
                told = nil
                wait = Self.pollSeconds
                locked { heardFrom = Date() }
                try apply(sync: answer)
            } catch let error as MatrixError {
                if error.kind == .cancelled { return }
                if let asked = error.retryAfter {
                    let seconds = min(asked, locked { longestRateLimitWait })
                    // Nothing syncs meanwhile: the status bar says so rather than `live`.
                    setConnection(.rateLimited(retryIn: Int(seconds.rounded(.up))))
                    if !pause(seconds) { return }
                    wait = 0
                    retrying()
                    continue
                }
                setConnection(.offline(retryIn: Int(delay.rounded())))
                // A refusal, a redirect (never followed: the token stays here) or a session
                // ended would only show as offline: the reader is told why.
                if !error.isTransient, told != error.kind {
                    told = error.kind
                    report([.problem("the room's updates stopped: \(error.message)")])
                }
                if !backOff(delay) { return }
                delay = min(delay * 2, Self.longestRetry)
                wait = 0
                retrying()
            } catch {
                setConnection(.offline(retryIn: Int(delay.rounded())))
                if !backOff(delay) { return }
                delay = min(delay * 2, Self.longestRetry)
                wait = 0
            }
        }
    }

    /// Sets the connection's state and queues it for the app, both under the lock, so states
    /// set from two threads reach the app in the order they were set; `allowed` (checked under
    /// the lock too) can refuse. `live` while the sync running now is overdue is `stalled`.
    func setConnection(_ state: ConnectionState, if allowed: () -> Bool = { true }) {
        let changed = locked { () -> Bool in
            guard allowed() else { return false }
            let state = state == .live && isSyncOverdue ? .stalled : state
            guard connection != state else { return false }
            connection = state
            queued.append(.connection(state))
            return true
        }
        if changed { wake.wake() }
    }

    /// The next attempt starts: `connecting`, unless a send proved the connection meanwhile.
    private func retrying() {
        let waited = locked { () -> Bool in
            switch connection {
            case .offline, .rateLimited: true
            case .connecting, .live, .stalled: false
            }
        }
        if waited { setConnection(.connecting) }
    }

    /// The server answered a request other than a sync (a send): the connection is live, and a
    /// sync waiting out its backoff tries again now rather than up to 30 s later.
    func connectionProven() {
        let wasLive = locked { () -> Bool in
            // A stalled sync is not helped by a send going through: it says so until it ends; nor
            // is one rate limited, which waits as long as the server asked.
            switch connection {
            case .live, .stalled, .rateLimited: return true
            case .offline, .connecting:
                retryNow = true
                return false
            }
        }
        guard !wasLive else { return }
        setConnection(.live)
        retrySignal.lock()
        retrySignal.broadcast()
        retrySignal.unlock()
    }

    /// Waits out a backoff: `seconds`, or until `stop()` or a proven connection; false when stopped.
    private func backOff(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        retrySignal.lock()
        defer { retrySignal.unlock() }
        while !stopped, !locked({ retryNow }), Date() < deadline { _ = retrySignal.wait(until: deadline) }
        locked { retryNow = false }
        return !stopped
    }

    /// Takes one sync answer: the room's timeline (a reported gap filled first if one page closes
    /// it, else marked), members, typing; then moves `next_batch`.
    private func apply(sync answer: JSONValue) throws {
        guard let next = answer["next_batch"]?.string else {
            throw MatrixError(.malformed, "the homeserver's sync had no next_batch")
        }
        var updates: [ThreadUpdate] = []
        var remembered: (updates: [ThreadUpdate], batchStart: String?)?
        var markerElsewhere: String?
        if let room = answer["rooms"]?["join"]?[roomID] {
            var events = room["timeline"]?["events"]?.array ?? []
            let state = room["state"]?["events"]?.array ?? []
            var batchStart = room["timeline"]?["prev_batch"]?.string
            // A switch to encryption in this sync holds sending at once, not after a gap's pages.
            let switched = locked { timeline.switchEncryptionOn(ifAmong: state + events) }
            report(switched)
            if room["timeline"]?["limited"]?.bool == true, let gapStart = batchStart {
                // One page closes most gaps (a short sleep); a longer absence is marked and filled
                // as the reader scrolls to it, so the newest comments show at once.
                let fill = try missingEvents(before: gapStart, pages: 1)
                events = fill.events + events
                if let rest = fill.rest {
                    let id = "gap-\(UUID().uuidString)"
                    locked {
                        gaps[id] = rest
                        // The offline copy cannot hold a gap: it starts again after this one.
                        cached = ([], rest)
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
            remembered = (switched + applied, batchStart)
            updates += applied
            updates += roomStateUpdates(events: events, state: state)
            markerElsewhere = movedMarker(in: room, events: events, applied: applied, lastBefore: lastBefore)
            for event in room["ephemeral"]?["events"]?.array ?? [] where event["type"]?.string == "m.typing" {
                let typing = (event["content"]?["user_ids"]?.array ?? []).compactMap(\.string).filter { $0 != me }
                updates.append(.typing(typing))
            }
        } else if answer["rooms"]?["leave"]?[roomID] != nil {
            updates.append(.problem("you are no longer in \(label)"))
        }
        let (wentLive, caughtUp) = locked { () -> (Bool, Bool) in
            nextBatch = next
            // A send proven during this sync asked for a retry that is not needed now: the next
            // failure backs off in full.
            retryNow = false
            defer { connection = .live; hasCaughtUp = true }
            return (connection != .live, !hasCaughtUp)
        }
        // Saved after `next_batch` moved, so a reopened copy resumes after these comments.
        if let remembered { remember(remembered.updates, batchStart: remembered.batchStart) }
        // Live in the same report as what the sync brought, so the status bar never says offline
        // over comments that just arrived; caught up after them, so the app places the divider
        // above the first of those written while the room was closed.
        var reported: [ThreadUpdate] = wentLive ? [.connection(.live)] : []
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
        guard isFromCache, !locked({ hasCaughtUp }) else { return nil }
        let accountData: [JSONValue] = room["account_data"]?["events"]?.array ?? []
        let inSync = accountData.filter { $0["type"]?.string == "m.fully_read" }.last?["content"]?["event_id"]?.string
        // Synapse's catching-up sync from the copy's token was seen without the room's account
        // data although the marker had moved: asked for once when the sync does not say.
        guard let marker = inSync ?? (try? client.fullyRead(room: roomID, userID: me)), marker != locked({ markerSent }) else { return nil }
        let arrived: [Comment] = applied.flatMap { update -> [Comment] in
            if case .commentsAppended(let list) = update { list } else { [] }
        }
        if let at = events.firstIndex(where: { $0["event_id"]?.string == marker }) {
            let upToMarker = Set(events[...at].compactMap { $0["event_id"]?.string })
            return arrived.last(where: { upToMarker.contains($0.id) })?.id ?? lastBefore
        }
        return locked { cached.comments.contains { $0.id == marker } } ? marker : nil
    }

    /// Events newer than all known and older than `token`, oldest first, read back at most
    /// `pages` pages; `rest` is where the ones still missing end (nil: none are).
    private func missingEvents(before token: String, pages: Int) throws -> (events: [JSONValue], rest: String?) {
        var collected: [JSONValue] = []
        var from: String? = token
        for _ in 0..<pages {
            guard let start = from else { break }
            let page = try client.messages(room: roomID, from: start, backwards: true, limit: Self.gapPageSize)
            let known = locked { Set(page.events.compactMap { $0["event_id"]?.string }.filter(timeline.knows)) }
            for event in page.events {
                if let id = event["event_id"]?.string, known.contains(id) { return (collected.reversed(), nil) }
                collected.append(event)
            }
            from = page.end
        }
        return (collected.reversed(), from)
    }

    /// Loads comments missing at a gap: a few pages back from where they end, reported as
    /// `.gapFilled` (the gap stays open above them if more are missing).
    public func fillGap(_ id: String) {
        workQueue.async { [weak self] in
            guard let self, let token = self.locked({ self.gaps[id] }) else { return }
            do {
                let fill = try self.missingEvents(before: token, pages: Self.gapPagesPerFill)
                let applied = self.locked { () -> [ThreadUpdate] in
                    self.gaps[id] = fill.rest
                    return self.timeline.applyNewer(fill.events)
                }
                // What the timeline would append belongs in the gap's place; edits and the rest follow.
                let comments = applied.flatMap { update -> [Comment] in if case .commentsAppended(let list) = update { list } else { [] } }
                let others = applied.filter { if case .commentsAppended = $0 { false } else { true } }
                self.report([.gapFilled(id: id, comments: comments, closed: fill.rest == nil)] + others)
            } catch {
                if self.stopped { return }
                self.report([.problem("could not load the messages missed: \(error)")])
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
        let page = try client.messages(room: roomID, from: token, backwards: true, limit: limit, filter: ["lazy_load_members": true])
        let applied = locked { timeline.applyOlder(page.events, state: page.state) }
        return (applied.comments, applied.updates, page.end, page.events.compactMap { $0["event_id"]?.string })
    }

    /// Pages back until a page has comments or the room's start; reports them as one page.
    private func loadPage(from token: String) {
        var from: String? = token
        var comments: [Comment] = []
        var updates: [ThreadUpdate] = []
        var marker = OlderReadMarker(eventID: locked { markerInOlder })
        do {
            // Pages of only state events (joins, renames) bring no comments: keep going a little.
            for _ in 0..<5 where comments.isEmpty {
                guard let start = from else { break }
                let page = try olderPage(from: start, limit: Self.pageSize)
                updates += page.updates
                marker.look(in: page.events, comments: page.comments)
                comments = page.comments + comments
                from = page.end
            }
        } catch {
            if stopped { return }
            report([.problem("could not load older comments: \(error)")])
            _ = pause(2)
            locked { isLoadingOlder = false }
            report([.olderComments([], hasMore: true)])
            return
        }
        let hasMore = locked { () -> Bool in
            olderToken = from
            isLoadingOlder = false
            if marker.isFound { markerInOlder = nil }
            return from != nil
        }
        let found: [ThreadUpdate] = marker.isFound ? [.readMarkerInOlder(after: marker.commentID)] : []
        report(updates + found + [.olderComments(comments, hasMore: hasMore)])
    }
}
