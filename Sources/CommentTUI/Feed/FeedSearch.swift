import ThreadModel

/// Ctrl-S: an incremental search of the whole thread, newest to oldest.
///
/// A keystroke only sets what to look for. One scan then reads every comment once, a slice per
/// turn of the loop (`FeedModel.continueSearch`, from `advance`), so a key never waits behind
/// it: from where the search starts down to the oldest, then from the newest back down to the
/// start. A thread file's lines are judged from their bytes and only those that may match are
/// decoded. A jump waits for the scan (`seeking`) only until the match it goes to is known; the
/// scan goes on counting, so that the status bar can number the match (`match 3 of 11`) and
/// Enter finds the next one without reading again.
struct FeedSearch {
    /// The scan: positions `0..<total` in the order `start`, `start - 1`, …, `0`, `total - 1`,
    /// …, `start + 1`.
    struct Scan: Equatable {
        /// The position read first.
        var start: Int
        /// The comments the scan reads (those that arrive later are checked as they come).
        var total: Int
        /// Comments read so far.
        var done = 0

        var isFinished: Bool { done >= total }

        /// The position read next (while not finished).
        var next: Int { done <= start ? start - done : total - 1 - (done - start - 1) }

        /// Positions from `next` down that the scan reads one after the other.
        var runLength: Int { done <= start ? start + 1 - done : total - done }

        /// Whether the scan has read a position (those past `total` count as read).
        func isScanned(_ position: Int) -> Bool {
            if position >= total { return true }
            if position <= start { return start - position < done }
            return total - 1 - position < done - (start + 1)
        }

        /// Whether the scan has read every position from `first` up to `end` (none when `end <= first`).
        func isScanned(from first: Int, to end: Int) -> Bool {
            let lower = max(0, first), upper = min(end, total)
            guard lower < upper else { return true }
            // Read positions run down from the start, then down from the newest: each part of
            // the range is read when its lowest position is.
            if lower <= start, !isScanned(lower) { return false }
            let above = max(lower, start + 1)
            return above >= upper || isScanned(above)
        }
    }

    /// The matches found, kept in the order the scan finds them, so each list stays sorted.
    struct Matches: Equatable {
        /// At or below the scan's start, newest first.
        var older: [Int] = []
        /// Above the start, newest first (found after the scan went past the oldest).
        var newer: [Int] = []
        /// Comments that arrived after the scan began, oldest first.
        var arrived: [Int] = []

        var count: Int { older.count + newer.count + arrived.count }

        mutating func record(_ position: Int, in scan: Scan) {
            if position >= scan.total {
                arrived.insert(position, at: arrived.firstIndex { $0 > position } ?? arrived.endIndex)
            } else if position <= scan.start {
                older.append(position)
            } else {
                newer.append(position)
            }
        }

        mutating func remove(_ position: Int) {
            older.removeAll { $0 == position }
            newer.removeAll { $0 == position }
            arrived.removeAll { $0 == position }
        }

        /// The newest match older than `position`.
        func newest(below position: Int) -> Int? {
            let candidates = [Self.firstBelow(position, inDescending: older), Self.firstBelow(position, inDescending: newer),
                              arrived[..<Self.countBelow(position, inAscending: arrived)].last]
            return candidates.compactMap { $0 }.max()
        }

        /// How many matches are older than `position`.
        func count(below position: Int) -> Int {
            Self.countBelow(position, inAscending: arrived)
                + older.count - Self.countAtOrAbove(position, inDescending: older)
                + newer.count - Self.countAtOrAbove(position, inDescending: newer)
        }

        private static func firstBelow(_ position: Int, inDescending list: [Int]) -> Int? {
            let index = countAtOrAbove(position, inDescending: list)
            return index < list.count ? list[index] : nil
        }

        /// Elements `>= position` at the front of a list sorted newest first (binary search).
        private static func countAtOrAbove(_ position: Int, inDescending list: [Int]) -> Int {
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle] >= position { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Elements `< position` at the front of a list sorted oldest first (binary search).
        private static func countBelow(_ position: Int, inAscending list: [Int]) -> Int {
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle] < position { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// Where Enter goes from a position, as far as the scan knows.
    enum Next: Equatable {
        /// To this match; `wrapped`: past the oldest comment, from the newest.
        case match(Int, wrapped: Bool)
        /// Nowhere: the thread has no match.
        case none
        /// Not known until the scan reads further.
        case unknown
    }

    /// How the shown match was reached, for what the status bar says of it.
    enum Jump: Equatable {
        case older, wrapped, again
    }

    /// What the reader typed.
    var query = ""

    /// Ctrl-W on a query: the spaces at its end, then the word before them (readline's rubout).
    static func deleteLastWord(_ query: inout String) {
        while query.last?.isWhitespace == true { query.removeLast() }
        while let last = query.last, !last.isWhitespace { query.removeLast() }
    }

    /// The comment that matches now, if any.
    var match: Int?
    /// How `match` was reached.
    var jump = Jump.older
    /// What the scan compares (made when the query changes).
    var pattern: SearchPattern?
    /// The thread's users as a pattern reads them, folded when the first query is (users who
    /// come later are found by their comments' text only, until Ctrl-S is pressed again).
    var users: SearchableUsers?
    /// The scan of the current query (kept when finished: it knows every match).
    var scan: Scan?
    var matches = Matches()
    /// A jump waiting for the scan: to the first match older than this position (wrapping).
    var seeking: Int?

    /// Whether the scan still reads.
    var isScanning: Bool { scan.map { !$0.isFinished } ?? false }

    /// Where Enter goes from `position`: the newest match older than it, once everything in
    /// between is read; else, past the oldest, the newest match of all.
    func next(olderThan position: Int) -> Next {
        guard let scan else { return .none }
        if let below = matches.newest(below: position) {
            return scan.isScanned(from: below + 1, to: position) ? .match(below, wrapped: false) : .unknown
        }
        guard scan.isScanned(from: 0, to: position) else { return .unknown }
        guard let newest = matches.newest(below: Int.max) else { return scan.isFinished ? .none : .unknown }
        return scan.isScanned(from: newest + 1, to: scan.total) ? .match(newest, wrapped: true) : .unknown
    }

    /// Raw bytes of a thread file judged per turn at most (about 10 ms).
    static let sliceBytes = 4 << 20
    /// Comments decoded per turn at most (those raw bytes cannot judge, or a source without them).
    static let sliceComments = 1_000
    /// Body bytes compared per turn at most: a slice of huge comments stops early.
    static let sliceBodyBytes = 2 << 20
    /// Comments judged from one read at most.
    static let runComments = 4_096
}
