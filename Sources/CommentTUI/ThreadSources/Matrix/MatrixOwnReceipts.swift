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
    /// The events our receipts in the post `root` are on (at most one per kind), sorted.
    static func inPost(_ root: String, among events: [JSONValue], me: String) -> [String] {
        var found: Set<String> = []
        for event in events where event["type"]?.string == "m.receipt" {
            for (eventID, receipt) in event["content"]?.object ?? [:] where MatrixThreadSummaries.isRootID(eventID) {
                for kind in ["m.read", "m.read.private"] where receipt[kind]?[me]?["thread_id"]?.string == root {
                    found.insert(eventID)
                }
            }
        }
        return found.sorted()
    }

    /// The newest of `receipts` by `events` (the post's, oldest first): a public and a private
    /// receipt may both be there, and the later covers the earlier. One among `events` wins over
    /// one that is not (older than them, or not in the thread's order at all); nil when none.
    static func newest(_ receipts: [String], in events: [String]) -> String? {
        let at = Dictionary(events.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { $1 })
        return receipts.max { (at[$0] ?? -1, $0) < (at[$1] ?? -1, $1) }
    }
}
