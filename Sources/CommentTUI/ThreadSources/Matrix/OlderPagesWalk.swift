import Foundation

/// Paging back through a room's history, a `/messages` page at a time, as the reader reaches the
/// top: every token a page was asked from, so a page whose `end` leads back to one ends the walk
/// at the room's start.
///
/// Older Synapse said the room's start with an `end` equal to the page's `from`; from a hostile
/// server, such a page (or one leading back to any token asked before) would otherwise say more
/// is older, and the feed would ask the same pages again each time the reader is at the top.
/// A value with no I/O: `MatrixThreadSource` asks the pages, its tests feed tokens without a server.
struct OlderPagesWalk: Equatable {
    /// The tokens pages were asked from.
    private var tokensAsked: Set<String> = []

    /// A page asked from `from` gave `end`: where the page before it starts, or nil at the room's
    /// start (no `end`, or one leading back to a token already asked).
    mutating func page(from: String, gave end: String?) -> String? {
        tokensAsked.insert(from)
        guard let end, !tokensAsked.contains(end) else { return nil }
        return end
    }
}
