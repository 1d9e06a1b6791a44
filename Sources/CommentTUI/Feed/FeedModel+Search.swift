import Foundation
import ThreadModel

extension FeedModel {
    /// Starts a search, or goes to the next match when one is running.
    func startSearch() -> FeedEffect? {
        if search != nil { return searchNext() }
        search = FeedSearch()
        return .message("search: type to find, Enter for the next match, Esc to leave")
    }

    /// Leaves the search (and the scan under way).
    func leaveSearch() { search = nil }

    /// Edits the query (a typed or pasted character, Backspace, Ctrl-W, Ctrl-U) and searches
    /// again from the current match; nothing when the edit changed nothing.
    func editSearch(_ edit: (inout String) -> Void) -> FeedEffect? {
        guard var current = search else { return nil }
        let before = current.query
        edit(&current.query)
        guard current.query != before else { return nil }
        search = current
        let start = current.match ?? lastVisibleComment
        return beginScan(from: start, seekingOlderThan: start + 1)
    }

    /// Pasted text goes into the query, its line breaks as spaces.
    func pasteIntoSearch(_ text: String) -> FeedEffect? {
        let line = String(text.map { $0.isNewline ? " " : $0 })
        return editSearch { $0 += line }
    }

    /// The newest comment on screen: where a search starts.
    private var lastVisibleComment: Int {
        let rows = scroll.model.containerSize.rows
        for row in stride(from: rows - 1, through: 0, by: -1) {
            if let position = scroll.position(atViewportRow: row), position.comment >= 0 { return position.comment }
        }
        return max(0, comments.count - 1)
    }

    /// The next older match after the current one (wrapping to the newest, as less and vim do,
    /// and saying so): at once when the scan knows it, else when the scan reaches it.
    func searchNext() -> FeedEffect? {
        guard var current = search, !current.query.isEmpty, let scan = current.scan else { return nil }
        // After a miss, Enter reads the thread again (it may have changed).
        if scan.isFinished, current.matches.count == 0 {
            let start = lastVisibleComment
            return beginScan(from: start, seekingOlderThan: start + 1)
        }
        current.seeking = current.match ?? lastVisibleComment + 1
        search = current
        return goToSoughtMatch() ?? searchStatus
    }

    /// Sets a scan of the whole thread going from `start` towards the oldest, replacing the one
    /// under way, and a jump to the first match older than `seeking` when given; reads nothing.
    private func beginScan(from start: Int, seekingOlderThan seeking: Int?) -> FeedEffect? {
        guard var current = search else { return nil }
        current.matches = FeedSearch.Matches()
        current.seeking = nil
        guard !current.query.isEmpty, comments.count > 0 else {
            current.match = nil
            current.scan = nil
            current.pattern = nil
            search = current
            return current.query.isEmpty ? .message("search: ") : nil
        }
        let count = comments.count
        let users = current.users ?? SearchableUsers(comments.thread.users)
        current.users = users
        current.pattern = SearchPattern(query: current.query, users: users)
        current.scan = FeedSearch.Scan(start: min(max(0, start), count - 1), total: count)
        current.seeking = seeking
        search = current
        return nil
    }

    /// Whether a scan is under way (the loop then wakes for the next slice at once).
    var isSearching: Bool { search?.isScanning ?? false }

    /// Reads the next slice of the scan under way — `FeedSearch.sliceBytes` of a thread file's
    /// lines, `sliceComments` decoded, `sliceBodyBytes` of bodies compared, whichever comes
    /// first — and goes to the match a jump waits for once it is known (the slice goes on
    /// counting: the frame shows the match all the same). Says how far it got.
    func continueSearch() -> FeedEffect? {
        guard var current = search, var scan = current.scan, !scan.isFinished, let pattern = current.pattern else { return nil }
        var bytes = FeedSearch.sliceBytes, decodes = FeedSearch.sliceComments, bodyBytes = FeedSearch.sliceBodyBytes
        slice: while !scan.isFinished, bytes > 0, decodes > 0, bodyBytes > 0 {
            let top = scan.next
            let run = min(scan.runLength, FeedSearch.runComments)
            if let raw = comments.searchVerdicts(pattern, below: top + 1, atMost: run, maxBytes: bytes) {
                bytes -= raw.bytes
                for (step, verdict) in raw.verdicts.enumerated() {
                    var found = verdict == .yes
                    if verdict == .undecided {
                        guard decodes > 0 else { break slice }
                        decodes -= 1
                        found = searchConfirms(top - step, pattern, bodyBytes: &bodyBytes)
                    }
                    scan.done += 1
                    if found { current.matches.record(top - step, in: scan) }
                }
            } else {
                decodes -= 1
                let found = searchConfirms(top, pattern, bodyBytes: &bodyBytes)
                scan.done += 1
                if found { current.matches.record(top, in: scan) }
            }
        }
        current.scan = scan
        search = current
        return goToSoughtMatch() ?? searchStatus
    }

    /// Whether the comment at a position matches, read whole; counts its body's bytes.
    private func searchConfirms(_ index: Int, _ pattern: SearchPattern, bodyBytes: inout Int) -> Bool {
        guard let comment = comments.comment(at: index) else { return false }
        bodyBytes -= comment.body.utf8.count
        return pattern.matches(comment)
    }

    /// Goes to the match a jump waits for, once the scan knows it (a match the raw bytes
    /// promised is read whole first, and passed over if it does not match after all).
    private func goToSoughtMatch() -> FeedEffect? {
        guard var current = search, let from = current.seeking, let pattern = current.pattern else { return nil }
        while true {
            switch current.next(olderThan: from) {
            case .unknown:
                // Keeps the false matches passed over on the way.
                search = current
                return nil
            case .none:
                current.seeking = nil
                current.match = nil
                search = current
                return searchStatus
            case .match(let index, let wrapped):
                var ignored = 0
                guard searchConfirms(index, pattern, bodyBytes: &ignored) else {
                    current.matches.remove(index)
                    continue
                }
                let previous = current.match
                current.seeking = nil
                current.match = index
                // Past the oldest and round to the match it left: the only one.
                current.jump = !wrapped ? .older : previous == index ? .again : .wrapped
                search = current
                if previous != index { flashHeader(of: index) }
                let note = showMatch(index, pattern: pattern)
                return note ?? searchStatus
            }
        }
    }

    /// What the status bar says of the search: how far the scan is while a jump waits for it
    /// or while it counts, then which match is shown of how many (`match 3 of 11`), or that
    /// there is none. Numbers count from the oldest, as `comment i/N` does.
    var searchStatus: FeedEffect? {
        guard let current = search, !current.query.isEmpty, let scan = current.scan else { return nil }
        let head = "search \"\(current.query)\": "
        let read = "\(Self.grouped(scan.done)) of \(Self.grouped(scan.total))"
        if current.seeking != nil { return .message(head + "searching… " + read) }
        let count = current.matches.count
        guard let match = current.match else {
            guard scan.isFinished else { return .message(head + "searching… " + read) }
            if count > 0 { return .message(head + CountText.of(count, "match", plural: "matches") + " · Enter shows them") }
            let loaded = comments.hasOlder ? " loaded" : ""
            return .message(head + "no match in \(Self.grouped(scan.total)) comments" + loaded, isError: true)
        }
        guard scan.isFinished else {
            let how = current.jump == .wrapped ? "found, wrapped to the newest" : "found"
            return .message(head + how + " · counting matches… " + read)
        }
        let place = "match \(Self.grouped(current.matches.count(below: match) + 1)) of \(Self.grouped(count))"
        switch current.jump {
        case .again: return .message(head + place + " · the only match")
        case .wrapped: return .message(head + place + " · wrapped to the newest")
        case .older: return .message(head + place + " (Enter: older)")
        }
    }

    /// `1,000,000`: a count as the status bar writes it.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var out = ""
        for (n, digit) in digits.enumerated() {
            if n > 0, (digits.count - n) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    // MARK: The thread changes under a search

    /// Comments arrived after the newest: each is checked now (they are in memory), so the
    /// count stays whole; a great many start the scan again.
    func searchCommentsArrived(_ count: Int) {
        guard var current = search, let scan = current.scan, let pattern = current.pattern else { return }
        guard count <= FeedSearch.sliceComments else { return searchPositionsMoved { $0 } }
        var ignored = 0
        for index in max(scan.total, comments.count - count)..<comments.count
        where searchConfirms(index, pattern, bodyBytes: &ignored) {
            current.matches.record(index, in: scan)
        }
        search = current
    }

    /// A comment was edited: what the scan read of it may be wrong now, so the scan starts
    /// again from the match (the edit names no position; edits are rare). A shown match that
    /// the edit took away is no longer shown as one.
    func searchCommentEdited() {
        guard var current = search, current.scan != nil, let pattern = current.pattern else { return }
        var ignored = 0
        if let match = current.match, !searchConfirms(match, pattern, bodyBytes: &ignored) {
            current.match = nil
        }
        search = current
        searchPositionsMoved { $0 }
    }

    /// Positions moved (older comments loaded, a gap filled, the file read again): the match
    /// and a waiting jump move with them and the scan starts again from the match, as what it
    /// read names other positions now. `move` gives nil for a position that names nothing now.
    func searchPositionsMoved(_ move: (Int) -> Int?) {
        guard var current = search, let scan = current.scan else { return }
        current.match = current.match.flatMap(move)
        let seeking = current.seeking.map { move($0 - 1).map { $0 + 1 } ?? comments.count }
        search = current
        let start = current.match ?? move(scan.start) ?? comments.count - 1
        _ = beginScan(from: start, seekingOlderThan: seeking)
    }
}
