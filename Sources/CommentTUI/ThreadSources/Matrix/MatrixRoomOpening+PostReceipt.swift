import Foundation

/// A post's unread divider from our own threaded read receipt (`thread_id`: its root), as the
/// room's feed takes its divider from `m.fully_read`: the receipt Element, or this client
/// earlier, left in the post. The server counts the post's unread replies from the same receipt
/// (`unread_thread_notifications`, home's count), so both agree.
extension MatrixRoomOpening {
    /// Places the divider after our receipt among the opened replies (`pageEvents`, oldest
    /// first): after the last comment at or before its event; above them all when it is on the
    /// root and no older replies exist. On the root with older replies, or on an event older
    /// than the page, it is looked for in the older pages (`OlderReadMarker`: never found on the
    /// root, so every reply stays unread). No receipt: no divider, as before.
    mutating func placePostDivider(receipts: [String], root: String, pageEvents: [String]) {
        guard let receipt = MatrixOwnReceipts.newest(receipts, in: pageEvents) else { return }
        fullyRead = receipt
        if receipt == root {
            fullyReadPosition = olderToken == nil ? -1 : nil
            return
        }
        guard let at = pageEvents.firstIndex(of: receipt) else { return }
        let upToReceipt = Set(pageEvents[...at].map { timeline.commentID(forEvent: $0) })
        fullyReadPosition = comments.lastIndex { upToReceipt.contains($0.id) } ?? -1
    }
}
