import Foundation
import ThreadModel

/// A post of a room (a Matrix thread) as the thread: opened from its root, paged back through
/// `/relations`, written to with `m.thread` relations, read with threaded receipts.
extension MatrixThreadSource {
    /// The room's opening, or the post's when the address names one.
    static func opening(client: MatrixClient, address: MatrixRoomAddress, me: String, joinsEncrypted: Bool,
                        accountSync: MatrixAccountSync?) throws -> MatrixRoomOpening {
        if let root = address.postRoot {
            return try MatrixRoomOpening(client: client, address: address, root: root, me: me, pageSize: pageSize,
                                         joinsEncrypted: joinsEncrypted, awaiting: accountSync)
        }
        return try MatrixRoomOpening(client: client, address: address, me: me, pageSize: pageSize, joinsEncrypted: joinsEncrypted,
                                     awaiting: accountSync)
    }

    /// `address` with a permalink's event decided (before the offline copy is chosen, which is
    /// the post's or the room's): a reply in a post names its post, a post's root (one with a
    /// bundled thread, or marked as a post: `MatrixPostMark`) the post, any other message the
    /// room; a message that is no root is the `linkedEvent` the thread opens at. An edit or a
    /// reaction stands for the message it changes; any other event (a membership, a state
    /// event) is never a comment: the room opens at its newest, and `linkedNote` says why.
    /// Asked of the server; where it cannot say (offline, a room not joined yet) the event
    /// stays as given: a post's opening.
    static func permalinkResolved(_ address: MatrixRoomAddress, client: MatrixClient) -> MatrixRoomAddress {
        guard address.eventIsPermalink, var eventID = address.postRoot else { return address }
        var resolved = address
        resolved.eventIsPermalink = false
        // Briefly: a server that does not answer leaves the offline copy to open, a little late.
        let wait: TimeInterval = 5
        guard let room = address.isAlias
                ? (try? client.request("GET", ["directory", "room", address.identifier], timeout: wait))?["room_id"]?.string
                : address.identifier,
              var event = try? client.request("GET", ["rooms", room, "event", eventID], timeout: wait) else { return resolved }
        let relation = event["content"]?["m.relates_to"]
        if ["m.replace", "m.annotation"].contains(relation?["rel_type"]?.string) {
            // What the link shows is the message changed (an edit's own event is no comment).
            let target = relation?["event_id"]?.string.flatMap { MatrixRoomAddress.isEventID($0) ? $0 : nil }
            (eventID, event) = (target ?? eventID, target.flatMap { try? client.request("GET", ["rooms", room, "event", $0], timeout: wait) } ?? [:])
        }
        guard ["m.room.message", "m.room.encrypted"].contains(event["type"]?.string) else {
            resolved.postRoot = nil
            // Said in our words: the event's type is the server's text.
            let kind = event["type"]?.string == "m.room.member" ? "a membership change"
                : event["state_key"] != nil ? "a change to the room's settings" : "an event that is no message"
            resolved.linkedNote = "the link names \(kind), not a message: the room opens at its newest"
            return resolved
        }
        if let parent = MatrixTimelineScope.threadRoot(of: event) {
            resolved.postRoot = parent
            resolved.linkedEvent = eventID
        } else if event["unsigned"]?["m.relations"]?["m.thread"]?.object == nil, !MatrixPostMark.isMarkedRoot(event) {
            resolved.postRoot = nil
            resolved.linkedEvent = eventID
        } else {
            resolved.postRoot = eventID
        }
        return resolved
    }

    /// The post's root; nil for the room's own feed.
    public var postRoot: String? { locked { timeline.scope.root } }

    public var isPost: Bool { postRoot != nil }

    public func postRoot(ofComment id: String) -> String? {
        locked { () -> String? in
            guard timeline.scope == .room, let event = timeline.eventID(forComment: id), timeline.postRoots.contains(event) else { return nil }
            return event
        }
    }

    /// One page of the post's replies before `token` (a `next_batch`, unmarked), read into the timeline
    /// as a room's older page is; `end` is where the page before starts.
    func olderReplies(root: String, from token: String, limit: Int)
        throws -> (comments: [Comment], updates: [ThreadUpdate], end: String?, events: [String]) {
        let page = MatrixThreadPage(answer: try client.threadReplies(room: roomID, root: root, from: token, limit: limit), root: root)
        let names = unknownSenders(of: page.newestFirst)
        let applied = locked { timeline.applyOlder(page.newestFirst, state: names) }
        return (applied.comments, applied.updates, page.olderToken, page.newestFirst.compactMap { $0["event_id"]?.string })
    }

    /// `content` (a message's) put in the post's thread (call locked): a reply to `replyTo` is a
    /// real reply in it (`is_falling_back: false`); any other comment falls back to the post's
    /// newest comment (or its root) for clients without threads. The room's feed: unchanged.
    func inPost(_ content: JSONValue, replyTo: String?) -> JSONValue {
        guard let root = timeline.scope.root, case .object(var object) = content else { return content }
        let target = replyTo ?? timeline.newestComment ?? root
        object["m.relates_to"] = [
            "rel_type": "m.thread", "event_id": .string(root), "is_falling_back": .bool(replyTo == nil),
            "m.in_reply_to": ["event_id": .string(target)],
        ]
        return .object(object)
    }

    /// Moves the reader's markers to `eventID`: in a post, its threaded receipt (`thread_id`: the
    /// root), the room's fully-read marker left to the room's feed; in the room's feed, the
    /// fully-read marker and a receipt in the main timeline (`thread_id: main`), so the room's
    /// reading never marks its posts read (an unthreaded receipt would, up to that event).
    func moveReadMarkers(to eventID: String, timeout: TimeInterval = 5) throws {
        if let root = postRoot {
            try client.setThreadReceipt(room: roomID, eventID: eventID, thread: root, privately: privateReceipts, timeout: timeout)
        } else {
            try client.setReadMarkers(room: roomID, eventID: eventID, receipt: false, privately: privateReceipts, timeout: timeout)
            try client.setThreadReceipt(room: roomID, eventID: eventID, thread: "main", privately: privateReceipts, timeout: timeout)
        }
    }
}
