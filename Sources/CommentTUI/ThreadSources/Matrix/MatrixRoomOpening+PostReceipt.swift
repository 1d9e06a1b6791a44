import Foundation
import ThreadModel

/// A post's unread divider from our own threaded read receipt (`thread_id`: its root), as the
/// room's feed takes its divider from `m.fully_read`: the receipt Element, or this client
/// earlier, left in the post. The server counts the post's unread replies from the same receipt
/// (`unread_thread_notifications`, home's count), so both agree.
extension MatrixRoomOpening {
    /// Places the divider after our receipt among the opened replies (`page`, oldest first):
    /// each receipt's place found (`MatrixPostReceiptPlace`; one on an event the page does not
    /// hold, a reaction or an edit, is fetched to see what it relates to), the later one kept.
    /// After the last comment at or before that place; above them all when it is on the root
    /// and no older replies exist. On the root with older replies, or before the page, it is
    /// looked for in the older pages (`OlderReadMarker`: never found on the root, so every reply
    /// stays unread). No receipt: no divider, as before.
    mutating func placePostDivider(receipts: [MatrixOwnReceipts.Receipt], root: String, page: [JSONValue], client: MatrixClient) {
        let held = Set(page.compactMap { $0["event_id"]?.string } + [root])
        let places = receipts.map { receipt in
            MatrixPostReceiptPlace(receipt, event: held.contains(receipt.eventID) ? nil : try? client.event(room: roomID, id: receipt.eventID),
                                   root: root, page: page)
        }
        guard let place = places.max() else { return }
        switch place {
        case .root:
            fullyRead = root
            fullyReadPosition = olderToken == nil ? -1 : nil
        case .older(_, let eventID):
            fullyRead = eventID
            fullyReadPosition = nil
        case .after(let at):
            let pageEvents = page.compactMap { $0["event_id"]?.string }
            guard let reply = page[at]["event_id"]?.string, let end = pageEvents.firstIndex(of: reply) else { return }
            fullyRead = reply
            let upToReceipt = Set(pageEvents[...end].map { timeline.commentID(forEvent: $0) })
            fullyReadPosition = comments.lastIndex { upToReceipt.contains($0.id) } ?? -1
        }
    }
}
