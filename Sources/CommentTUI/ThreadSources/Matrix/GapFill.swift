import Foundation
import ThreadModel

/// What filling a gap in a room's timeline asks next and what it found: the events missing
/// between those the timeline has and a token where they end (a limited sync's `prev_batch`, or
/// where an earlier fill stopped), read back with `/messages` a page at a time.
///
/// A value fed each page's answer and which of the page's events the timeline already has; it
/// does no I/O, so its tests feed pages without a server. `MatrixThreadSource` carries its
/// requests out: one page at sync time (a short absence closes there), `gapPagesPerFill` as the
/// reader scrolls to a gap marked in the feed.
struct GapFill: Equatable {
    /// One `/messages` request to make: back from `from`, at most `limit` events.
    struct Request: Equatable {
        var from: String
        var limit: Int
    }

    /// The request to make next; nil when the fill is done.
    private(set) var request: Request?
    /// Where the events still missing end: the gap left open, nil once it closed (the timeline's
    /// events were met, or the room's start).
    private(set) var rest: String?
    /// The missing events found so far, newest first (as the pages give them).
    private var found: [JSONValue] = []
    /// Their ids: an event a server gives twice is taken once.
    private var foundIDs: Set<String> = []
    /// Pages still allowed.
    private var pagesLeft: Int
    /// The tokens asked from, by this fill and the earlier fills of its gap: a page leading back
    /// to one is a server going round in circles.
    private var tokensAsked: Set<String>
    private let pageSize: Int

    /// A fill of the events missing before `token`, reading at most `pages` pages of `pageSize`.
    init(before token: String, pages: Int, pageSize: Int = MatrixThreadSource.gapPageSize) {
        rest = token
        pagesLeft = pages
        tokensAsked = [token]
        self.pageSize = pageSize
        request = pages > 0 ? Request(from: token, limit: pageSize) : nil
    }

    /// The next fill of the gap this one left open, `pages` more pages from where it stopped;
    /// nil if it closed. It knows the tokens asked so far, so a later fill leading back to one
    /// asked by an earlier fill closes the gap too.
    func resumed(pages: Int) -> GapFill? {
        guard let rest else { return nil }
        var next = GapFill(before: rest, pages: pages, pageSize: pageSize)
        next.tokensAsked = tokensAsked
        return next
    }

    /// Whether the fill asks for nothing more.
    var isDone: Bool { request == nil }

    /// The missing events found, oldest first (as the timeline applies them).
    var missing: [JSONValue] { found.reversed() }

    /// The page asked for came back: `events` newest first, `end` where the page before it starts
    /// (nil at the room's start), `known` the ids among `events` the timeline already has.
    /// Meeting one of those closes the gap: what is older than it is had.
    mutating func answered(events: [JSONValue], end: String?, known: Set<String>) {
        guard let asked = request else { return }
        pagesLeft -= 1
        for event in events {
            let id = event["event_id"]?.string
            if let id, known.contains(id) { return close() }
            if let id, !foundIDs.insert(id).inserted { continue }
            found.append(event)
        }
        // No `end` is the room's start. An `end` already asked from (its own `from`, as older
        // Synapse said the start) gives nothing more: left open, the gap would be asked for again
        // and again while the reader stays near it, so it closes with what was found.
        guard let end, tokensAsked.insert(end).inserted else { return close() }
        rest = end
        request = pagesLeft > 0 ? Request(from: end, limit: asked.limit) : nil
    }

    /// Nothing more is missing, or to be had.
    private mutating func close() {
        rest = nil
        request = nil
    }
}
