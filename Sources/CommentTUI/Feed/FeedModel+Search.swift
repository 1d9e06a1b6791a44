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

extension FeedModel {
    /// Starts a search, or goes to the next match when one is running.
    func startSearch() -> FeedEffect? {
        if search != nil { return searchNext() }
        search = FeedSearch()
        return .message("search: type to find, Enter for the next match, Esc to leave")
    }

    /// Leaves the search.
    func leaveSearch() { search = nil }

    /// Adds a typed character to the query and searches from the current match.
    func typeIntoSearch(_ character: Character) -> FeedEffect? {
        guard var current = search else { return nil }
        current.query.append(character)
        search = current
        return runSearch(from: current.match ?? lastVisibleComment)
    }

    /// Removes the query's last character and searches again.
    func deleteSearchCharacter() -> FeedEffect? {
        guard var current = search, !current.query.isEmpty else { return nil }
        current.query.removeLast()
        search = current
        return runSearch(from: current.match ?? lastVisibleComment)
    }

    /// The newest comment on screen: where a search starts.
    private var lastVisibleComment: Int {
        let rows = scroll.model.containerSize.rows
        for row in stride(from: rows - 1, through: 0, by: -1) {
            if let position = scroll.position(atViewportRow: row), position.comment >= 0 { return position.comment }
        }
        return max(0, comments.count - 1)
    }

    /// The next older match after the current one (wrapping to the newest).
    func searchNext() -> FeedEffect? {
        guard let current = search, !current.query.isEmpty else { return nil }
        let start = (current.match ?? lastVisibleComment + 1) - 1
        return runSearch(from: start < 0 ? comments.count - 1 : start)
    }

    /// Finds the query in `start` or an older comment, wrapping once; selects and shows the match.
    private func runSearch(from start: Int) -> FeedEffect? {
        guard var current = search, comments.count > 0 else { return nil }
        guard !current.query.isEmpty else {
            current.match = nil
            search = current
            return .message("search: ")
        }
        let count = comments.count
        let first = min(max(0, start), count - 1)
        for step in 0..<min(count, FeedSearch.scanLimit) {
            let index = (first - step + count) % count
            guard matches(index, current.query) else { continue }
            if search?.match != index { flashHeader(of: index) }
            current.match = index
            search = current
            selected = index
            scrollIntoView(index)
            return .message("search \"\(current.query)\": comment \(index + 1) of \(count) (Enter: older)")
        }
        let scanned = min(count, FeedSearch.scanLimit)
        current.match = scanned < count ? (first - scanned + 1 + count) % count : nil
        search = current
        return scanned < count ? .message("search \"\(current.query)\": not in \(scanned) comments; Enter goes on")
                               : .message("search \"\(current.query)\": no match", isError: true)
    }

    private func matches(_ index: Int, _ query: String) -> Bool {
        guard case .success(let comment) = comments.comment(at: index) else { return false }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        if comment.body.range(of: query, options: options) != nil { return true }
        guard let user = comments.user(id: comment.author) else { return false }
        return user.name.range(of: query, options: options) != nil || user.handle.range(of: query, options: options) != nil
    }
}
