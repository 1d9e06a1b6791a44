import Foundation
import ThreadModel

/// Our own read receipts in one post (a Matrix thread), read from a room's `m.receipt` events (a
/// sync's ephemeral ones, or sliding sync's receipts extension): the events our receipt with the
/// post's `thread_id` is on, public (`m.read`) or private (`m.read.private`), whichever client
/// sent it. A receipt in `main`, or one with no `thread_id`, is the room's: it never places a
/// post's divider (where it stands among the post's replies is not known without the room's order).
///
/// Pure, and hostile input: ids that are no event ids are left out.
enum MatrixOwnReceipts {
    /// One receipt of ours in the post: the event it is on, and when it was sent (`ts`, the
    /// server's milliseconds; 0 when missing), which tells a public and a private one apart
    /// where the post's order does not.
    struct Receipt: Equatable, Sendable {
        var eventID: String
        var ts: Double
    }

    /// Our receipts in the post `root` (at most one per kind; the later `ts` where both are on
    /// one event), sorted by event id.
    static func receipts(inPost root: String, among events: [JSONValue], me: String) -> [Receipt] {
        var found: [String: Double] = [:]
        for event in events where event["type"]?.string == "m.receipt" {
            for (eventID, receipt) in event["content"]?.object ?? [:] where MatrixThreadSummaries.isRootID(eventID) {
                for kind in ["m.read", "m.read.private"] where receipt[kind]?[me]?["thread_id"]?.string == root {
                    let ts = milliseconds(receipt[kind]?[me]?["ts"]) ?? 0
                    found[eventID] = max(found[eventID] ?? ts, ts)
                }
            }
        }
        return found.map { Receipt(eventID: $0.key, ts: $0.value) }.sorted { $0.eventID < $1.eventID }
    }

    /// The events our receipts in the post `root` are on (at most one per kind), sorted.
    static func inPost(_ root: String, among events: [JSONValue], me: String) -> [String] {
        receipts(inPost: root, among: events, me: me).map(\.eventID)
    }

    /// The newest of `receipts` by `events` (the post's, oldest first): a public and a private
    /// receipt may both be there, and the later covers the earlier. One among `events` wins over
    /// one that is not (older than them); between two that are not, the later sent (`ts`); one
    /// on the root (nothing read) loses to every other. Nil when none.
    static func newest(_ receipts: [Receipt], in events: [String], root: String) -> Receipt? {
        let at = Dictionary(events.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { $1 })
        func rank(_ receipt: Receipt) -> (Int, Double) {
            (receipt.eventID == root ? -2 : at[receipt.eventID] ?? -1, receipt.ts)
        }
        return receipts.max { rank($0) < rank($1) }
    }

    /// A number of milliseconds a server sent (finite), else nil.
    static func milliseconds(_ value: JSONValue?) -> Double? {
        if case .number(let n)? = value, n.isFinite { n } else { nil }
    }
}
