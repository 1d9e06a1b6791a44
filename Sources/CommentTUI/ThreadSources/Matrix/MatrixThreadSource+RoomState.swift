import Foundation
import ThreadModel

/// The room's state followed live: a rename retitles the thread, a newly pinned event becomes
/// its post, and members who leave (or are kicked or banned) are no longer offered in the @ list
/// until they join again. Their comments keep their names.
extension MatrixThreadSource {
    /// The updates a sync's state and timeline events make to the header and the membership.
    /// Runs on the sync thread: a newly pinned post is fetched here, outside the lock.
    func roomStateUpdates(events: [JSONValue], state: [JSONValue]) -> [ThreadUpdate] {
        var name: String??
        var pinned: [String]?
        var membership: [String: Bool] = [:]
        for event in state + events {
            guard event["state_key"] != nil, let type = event["type"]?.string else { continue }
            let content = event["content"]
            switch type {
            case "m.room.name" where event["state_key"]?.string == "":
                name = .some(content?["name"]?.string)
            case "m.room.pinned_events" where event["state_key"]?.string == "":
                pinned = (content?["pinned"]?.array ?? []).compactMap(\.string)
            case "m.room.member":
                guard let user = event["state_key"]?.string, MatrixMembers.isUserID(user), user != me else { continue }
                switch content?["membership"]?.string {
                case "join": membership[user] = true
                case "leave", "ban": membership[user] = false
                default: continue
                }
            default: continue
            }
        }
        var updates: [ThreadUpdate] = []
        if !membership.isEmpty {
            updates.append(.membersChanged(joined: membership.filter(\.value).keys.sorted(),
                                           left: membership.filter { !$0.value }.keys.sorted()))
        }
        // A post's header is its root, whatever the room's name and pins.
        if locked({ timeline.scope.root }) != nil { return updates + postHeaderUpdates(events: events) }
        let post = pinned.flatMap(newestPin).flatMap { id in locked { timeline.postEventID } == id ? nil : newPost(id) }
        guard name != nil || post != nil else { return updates }
        let header = locked { () -> ThreadHeader in
            var header = liveHeader ?? ThreadHeader(thread)
            if let name {
                // A removed name leaves the alias, else the room id, as other clients show it.
                let named = name.flatMap { $0.isEmpty ? nil : $0 }
                header.title = named ?? roomAlias ?? roomID
                if roomAlias == nil { labelLock.withLock { currentLabel = named.map { VisibleText.escape($0) } ?? roomID } }
            }
            if let post {
                header.body = post.body
                timeline.postEventID = post.id
            }
            liveHeader = header
            return header
        }
        updates.append(.headerChanged(title: header.title, body: header.body))
        return updates
    }

    /// The pin that is the post now: the one newly added to the list (Element appends, so the
    /// last), else the post while it stays pinned, else the newest left; nil when none is (the
    /// post stays when everything is unpinned).
    private func newestPin(_ pinned: [String]) -> String? {
        let (current, previous) = locked { () -> (String?, [String]?) in
            defer { pinnedEvents = pinned }
            return (timeline.postEventID, pinnedEvents)
        }
        if let added = pinned.last(where: { !(previous ?? []).contains($0) }) { return added }
        if let current, pinned.contains(current) { return current }
        return pinned.last
    }

    /// The pinned event as the post: its id and Markdown (nil when it cannot be read).
    private func newPost(_ id: String) -> (id: String, body: String)? {
        guard let event = try? client.event(room: roomID, id: id), let content = event["content"],
              let sender = event["sender"]?.string else { return nil }
        let body = locked { () -> String? in
            let members = timeline.members
            return MatrixEventReader(handle: { members.handles[$0] }, name: { members.name(of: $0) })
                .markdown(of: content, sender: sender, isReply: false)
        }
        return body.map { (id, $0) }
    }
}
