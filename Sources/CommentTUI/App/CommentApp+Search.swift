import Foundation
import ThreadModel

/// Ctrl-S: an incremental search of the feed, newest to oldest.
struct FeedSearch {
    /// What the reader typed.
    var query = ""
    /// The comment that matches now, if any.
    var match: Int?
    /// Comments read per search step at most, so a keystroke in a huge thread stays quick;
    /// Enter goes on from where the step stopped.
    static let scanLimit = 100_000
}

extension CommentApp {
    /// Starts a search, or goes to the next match when one is running.
    func startSearch() {
        if search != nil { return searchNext() }
        search = FeedSearch()
        show("search: type to find, Enter for the next match, Esc to leave")
    }

    /// Keys while searching; false lets the key act as usual (scrolling, quitting).
    func handleSearchKey(_ press: KeyPress) -> Bool {
        guard var current = search else { return false }
        switch (press.key, press.modifiers) {
        case (.escape, []):
            search = nil
            message = nil
        case (.enter, []), (.character("s"), .ctrl):
            searchNext()
        case (.backspace, []):
            guard !current.query.isEmpty else { return true }
            current.query.removeLast()
            search = current
            runSearch(from: current.match ?? lastVisibleComment)
        case (.character(let c), []), (.character(let c), .shift):
            current.query.append(c)
            search = current
            runSearch(from: current.match ?? lastVisibleComment)
        default:
            return false
        }
        return true
    }

    /// The newest comment on screen: where a search starts.
    var lastVisibleComment: Int {
        let rows = feedScroll.model.containerSize.rows
        for row in stride(from: rows - 1, through: 0, by: -1) {
            if let position = feedScroll.position(atViewportRow: row), position.comment >= 0 { return position.comment }
        }
        return max(0, commentCount - 1)
    }

    /// The next older match after the current one (wrapping to the newest).
    func searchNext() {
        guard let current = search, !current.query.isEmpty else { return }
        let start = (current.match ?? lastVisibleComment + 1) - 1
        runSearch(from: start < 0 ? commentCount - 1 : start)
    }

    /// Finds the query in `start` or an older comment, wrapping once; selects and shows the match.
    func runSearch(from start: Int) {
        guard var current = search, commentCount > 0 else { return }
        guard !current.query.isEmpty else {
            current.match = nil
            search = current
            return show("search: ")
        }
        let count = commentCount
        let first = min(max(0, start), count - 1)
        for step in 0..<min(count, FeedSearch.scanLimit) {
            let index = (first - step + count) % count
            guard matches(index, current.query) else { continue }
            current.match = index
            search = current
            selectedComment = index
            scrollIntoView(index)
            return show("search \"\(current.query)\": comment \(index + 1) of \(count) (Enter: older)")
        }
        current.match = nil
        search = current
        let scanned = min(count, FeedSearch.scanLimit)
        show(scanned < count ? "search \"\(current.query)\": not in \(scanned) comments; Enter goes on"
                             : "search \"\(current.query)\": no match", error: scanned == count)
        if scanned < count { search?.match = (first - scanned + 1 + count) % count }
    }

    private func matches(_ index: Int, _ query: String) -> Bool {
        guard case .success(let comment) = feedComment(at: index) else { return false }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        if comment.body.range(of: query, options: options) != nil { return true }
        guard let user = thread.user(id: comment.author) else { return false }
        return user.name.range(of: query, options: options) != nil || user.handle.range(of: query, options: options) != nil
    }
}
