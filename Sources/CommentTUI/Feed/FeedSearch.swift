/// Ctrl-S: an incremental search of the feed, newest to oldest.
///
/// A keystroke only sets what to look for; the comments are read a slice per turn of the loop
/// (`FeedModel.continueSearch`, from `advance`), so a key never waits behind a scan of a huge
/// thread, and the next key replaces the scan under way.
struct FeedSearch {
    /// A scan under way: `length` comments from `first` towards the oldest, wrapping.
    struct Scan: Equatable {
        /// The position read first.
        var first: Int
        /// Comments this scan reads at most.
        var length: Int
        /// Comments read so far.
        var done = 0
        /// Whether the scan started past the oldest comment, at the newest (Enter on the oldest match).
        var startsWrapped = false

        /// Whether the comment read last was reached by going past the oldest to the newest.
        var hasWrapped: Bool { startsWrapped || done - 1 > first }
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
    /// The scan under way, if any.
    var scan: Scan?

    /// Comments read per search step at most, so a step in a huge thread ends;
    /// Enter goes on from where the step stopped.
    static let scanLimit = 100_000
    /// Comments read per turn of the loop at most (a few milliseconds of decoding).
    static let sliceComments = 1_000
    /// Body bytes read per turn at most: a slice of huge comments stops early.
    static let sliceBytes = 2 << 20
}
