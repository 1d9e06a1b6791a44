import Foundation
import ThreadModel

/// Where one receipt of ours in a post stands among the opened page's replies (oldest first).
/// A receipt may be on any event of the post: a reply, the root, or (Synapse takes a threaded
/// receipt on any event related to a reply, and Element X puts its receipt on the newest event
/// even when it is folded) a reaction or an edit, which `/relations` pages never hold. Such a
/// receipt means the post was read as far as that event had arrived: after the reply it
/// relates to at least, and after every reply sent before it (the server counts the post's
/// unread replies by the same arrival order, so home's count agrees).
///
/// Pure; ordered so the later place is the greater: the root (nothing read) first, then places
/// before the page (by time), then after each reply of the page.
enum MatrixPostReceiptPlace: Comparable {
    /// On the root: every reply unread.
    case root
    /// Before every reply of the page, at `ts`: `eventID` (the reply it relates to, when known)
    /// is looked for in older pages.
    case older(ts: Double, eventID: String)
    /// After the page's reply at this index.
    case after(Int)

    /// The relations that tie an event to the reply (or root) it is about.
    static let relatedTypes: Set<String> = ["m.annotation", "m.replace", "m.reference"]

    /// The place of `receipt` on the post `root`, its opened `page` (oldest first); `event` is the
    /// receipt's event fetched when the page does not hold it (nil: not fetched, or refused), and
    /// without it the receipt's own time stands for the event's.
    init(_ receipt: MatrixOwnReceipts.Receipt, event: JSONValue?, root: String, page: [JSONValue]) {
        if receipt.eventID == root {
            self = .root
            return
        }
        let ids = page.map { $0["event_id"]?.string }
        // The page holds a reply's bundled edit beside the reply, not where it arrived.
        func isReply(_ event: JSONValue) -> Bool { !Self.relatedTypes.contains(event["content"]?["m.relates_to"]?["rel_type"]?.string ?? "") }
        var event = event
        if let at = ids.firstIndex(of: receipt.eventID) {
            guard !isReply(page[at]) else {
                self = .after(at)
                return
            }
            event = page[at]
        }
        let relation = event?["content"]?["m.relates_to"]
        let target = relation?["rel_type"]?.string.flatMap { Self.relatedTypes.contains($0) ? relation?["event_id"]?.string : nil }
        var at = target.flatMap { ids.firstIndex(of: $0) } ?? -1
        let time = MatrixOwnReceipts.milliseconds(event?["origin_server_ts"]) ?? receipt.ts
        if let sentBefore = page.indices.last(where: {
            isReply(page[$0]) && (MatrixOwnReceipts.milliseconds(page[$0]["origin_server_ts"]) ?? .infinity) <= time
        }) {
            at = max(at, sentBefore)
        }
        if at >= 0 {
            self = .after(at)
        } else if target == root {
            self = .root
        } else {
            self = .older(ts: time, eventID: target ?? receipt.eventID)
        }
    }
}
