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
        return beginScan(from: current.match ?? lastVisibleComment)
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
    /// and saying so).
    func searchNext() -> FeedEffect? {
        guard let current = search, !current.query.isEmpty else { return nil }
        let start = (current.match ?? lastVisibleComment + 1) - 1
        return start < 0 ? beginScan(from: comments.count - 1, wrapped: true) : beginScan(from: start)
    }

    /// Sets a scan going from `start` towards the oldest, replacing the one under way; reads
    /// nothing. `wrapped`: `start` is the newest, reached by going past the oldest.
    private func beginScan(from start: Int, wrapped: Bool = false) -> FeedEffect? {
        guard var current = search, comments.count > 0 else { return nil }
        guard !current.query.isEmpty else {
            current.match = nil
            current.scan = nil
            search = current
            return .message("search: ")
        }
        let count = comments.count
        current.scan = FeedSearch.Scan(first: min(max(0, start), count - 1), length: min(count, FeedSearch.scanLimit),
                                       startsWrapped: wrapped)
        search = current
        return nil
    }

    /// Whether a scan is under way (the loop then wakes for the next slice at once).
    var isSearching: Bool { search?.scan != nil }

    /// Reads the next slice of the scan under way (`FeedSearch.sliceComments` comments or
    /// `sliceBytes` of bodies at most); selects and shows a match when one is found.
    func continueSearch() -> FeedEffect? {
        guard var current = search, var scan = current.scan else { return nil }
        let count = comments.count
        guard count > 0 else {
            current.scan = nil
            search = current
            return nil
        }
        var bytes = 0
        let sliceEnd = min(scan.length, scan.done + FeedSearch.sliceComments)
        while scan.done < sliceEnd, bytes < FeedSearch.sliceBytes {
            let index = ((scan.first - scan.done) % count + count) % count
            scan.done += 1
            let read = matches(index, current.query)
            bytes += read.bytes
            guard read.matched else { continue }
            let previous = current.match
            if previous != index { flashHeader(of: index) }
            current.scan = nil
            current.match = index
            search = current
            selected = index
            scrollIntoView(index)
            return .message(Self.foundText(current.query, at: index, of: count, wrapped: scan.hasWrapped, again: previous == index))
        }
        guard scan.done >= scan.length else {
            current.scan = scan
            search = current
            return nil
        }
        current.scan = nil
        let partial = scan.length < count
        current.match = partial ? ((scan.first - scan.length + 1) % count + count) % count : nil
        search = current
        return partial ? .message("search \"\(current.query)\": not in \(scan.length) comments; Enter goes on")
                       : .message("search \"\(current.query)\": no match", isError: true)
    }

    /// What the status bar says of a match: where it is, and whether the search went past the
    /// oldest comment to reach it (`again`: back to the match it started from, the only one).
    static func foundText(_ query: String, at index: Int, of count: Int, wrapped: Bool, again: Bool) -> String {
        let place = "comment \(index + 1) of \(count)"
        switch (wrapped, again) {
        case (true, true): return "search \"\(query)\": \(place) is the only match"
        case (true, false): return "search \"\(query)\": no older match · wrapped to the newest, \(place)"
        case (false, _): return "search \"\(query)\": \(place) (Enter: older)"
        }
    }

    /// Whether a comment matches, and the bytes of body read to know.
    private func matches(_ index: Int, _ query: String) -> (matched: Bool, bytes: Int) {
        guard case .success(let comment) = comments.comment(at: index) else { return (false, 0) }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        let bytes = comment.body.utf8.count
        if comment.body.range(of: query, options: options) != nil { return (true, bytes) }
        guard let user = comments.user(id: comment.author) else { return (false, bytes) }
        return (user.name.range(of: query, options: options) != nil || user.handle.range(of: query, options: options) != nil, bytes)
    }
}
