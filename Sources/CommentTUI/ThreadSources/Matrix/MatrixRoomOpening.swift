import Foundation
import ThreadModel

/// Opening a room as a thread: its id, header, members, newest page and sync position.
///
/// One filtered `/sync` gives the newest page, the state and the read marker together; the
/// joined members fill the mention list; the post is the pinned event, else the creator's first
/// message (one page from the room's start).
struct MatrixRoomOpening {
    var roomID: String
    var me: String
    var label: String
    /// The room's alias (canonical, or the one it was opened by), if it has one.
    var alias: String?
    var thread: CommentThread
    var comments: [Comment]
    var timeline: MatrixTimeline
    var olderToken: String?
    var nextBatch: String?
    var fullyRead: String?
    var filter: JSONValue
    /// Who may notify the room, as of the opening page (nil from the cache: asked for when needed).
    var power: MatrixReaderMention.Power?
    /// Users the room's state or page names who are not members now (left, kicked, banned).
    var departed: Set<String> = []
    /// Whether it came from the cache (nothing asked of the server yet).
    var isFromCache = false

    /// The room as the cache last saw it: no request at all, so it opens offline too.
    init(snapshot: MatrixRoomCache.Snapshot, me: String, pageSize: Int) {
        self.me = me
        roomID = snapshot.roomID
        label = snapshot.label
        // The label is the alias when the room has one.
        alias = snapshot.label.hasPrefix("#") && snapshot.label.contains(":") ? snapshot.label : nil
        var members = MatrixMembers(me: me)
        members.update(Dictionary(snapshot.users.map { ($0.id, Optional($0.name)) }, uniquingKeysWith: { a, _ in a }))
        timeline = MatrixTimeline(members: members)
        timeline.postEventID = snapshot.postEventID
        timeline.adopt(snapshot.comments)
        comments = snapshot.comments
        let header = snapshot.header
        thread = CommentThread(id: roomID, title: header.title, author: header.author, created: header.created, body: header.body,
                               users: timeline.members.users)
        olderToken = snapshot.olderToken
        nextBatch = snapshot.nextBatch
        fullyRead = snapshot.fullyRead
        filter = Self.filter(room: roomID, pageSize: pageSize)
        isFromCache = true
    }

    init(client: MatrixClient, address: MatrixRoomAddress, me: String, pageSize: Int) throws {
        self.me = me
        roomID = try Self.joinedRoom(client: client, address: address)
        if try client.stateContent(room: roomID, type: "m.room.encryption") != nil {
            throw MatrixError(.server(status: 0, errcode: nil), """
                \(VisibleText.escape(address.identifier)) is end-to-end encrypted: comment-tui cannot read \
                encrypted rooms (it has no Olm/Megolm cryptography)
                """)
        }
        filter = Self.filter(room: roomID, pageSize: pageSize)
        let sync = try client.sync(since: nil, filter: filter, wait: 0)
        let room = sync["rooms"]?["join"]?[roomID]
        var stateEvents = room?["state"]?["events"]?.array ?? []
        var timelineEvents = room?["timeline"]?["events"]?.array ?? []
        fullyRead = (room?["account_data"]?["events"]?.array ?? [])
            .first { $0["type"]?.string == "m.fully_read" }?["content"]?["event_id"]?.string
        if room?["timeline"]?["limited"]?.bool == true { olderToken = room?["timeline"]?["prev_batch"]?.string }
        // Synapse answers a repeated initial sync from a cache for a while (two minutes by
        // default), so a room reopened soon would miss what came since: catch up from it at once.
        let catchUp = try client.sync(since: sync["next_batch"]?.string, filter: filter, wait: 0)
        nextBatch = catchUp["next_batch"]?.string ?? sync["next_batch"]?.string
        if let newer = catchUp["rooms"]?["join"]?[roomID] {
            stateEvents += newer["state"]?["events"]?.array ?? []
            let events = newer["timeline"]?["events"]?.array ?? []
            if newer["timeline"]?["limited"]?.bool == true {
                // More came than a page: the newest page is the opening one, the rest is history.
                timelineEvents = events
                olderToken = newer["timeline"]?["prev_batch"]?.string
            } else {
                timelineEvents += events
            }
        }

        // Room state as of the page's end: the newest of each type from state, then the timeline.
        var current: [String: JSONValue] = [:]
        for event in stateEvents + timelineEvents where event["state_key"] != nil {
            current["\(event["type"]?.string ?? "")\u{0}\(event["state_key"]?.string ?? "")"] = event
        }
        func content(_ type: String) -> JSONValue? { current["\(type)\u{0}"]?["content"] }
        // The create event is before a new member's timeline: ask for it whole (its sender is the
        // creator; from room version 11 on the content no longer says).
        let create = try current["m.room.create\u{0}"]
            ?? client.request("GET", ["rooms", roomID, "state", "m.room.create", ""], query: ["format": "event"])
        let creator = create["sender"]?.string ?? create["content"]?["creator"]?.string ?? me
        let created = Date(timeIntervalSince1970: Double(create["origin_server_ts"]?.int ?? 0) / 1000)
        alias = address.isAlias ? address.identifier : content("m.room.canonical_alias")?["alias"]?.string
        let title = content("m.room.name")?["name"]?.string ?? alias ?? address.identifier
        label = alias ?? content("m.room.name")?["name"]?.string.map { VisibleText.escape($0) } ?? address.identifier
        if fullyRead == nil { fullyRead = try? client.fullyRead(room: roomID, userID: me) }
        power = MatrixReaderMention.Power(levels: content("m.room.power_levels"), create: create)

        var members = MatrixMembers(me: me)
        let joined = try? client.joinedMembers(room: roomID)
        members.update(joined ?? [:])
        timeline = MatrixTimeline(members: members)
        _ = timeline.applyState(stateEvents)

        let post = try Self.post(client: client, room: roomID, creator: creator, pinned: content("m.room.pinned_events"))
        timeline.postEventID = post?["event_id"]?.string
        let reader = MatrixEventReader(handle: { [members = timeline.members] in members.handles[$0] },
                                       name: { [members = timeline.members] in members.name(of: $0) })
        let postBody = post.flatMap { $0["content"] }.flatMap { reader.markdown(of: $0, sender: creator, isReply: false) }
            ?? content("m.room.topic")?["topic"]?.string.map { MatrixHTMLReader.markdown(fromPlainText: $0, isReply: false) } ?? ""

        var opened: [Comment] = []
        for update in timeline.applyNewer(timelineEvents) {
            if case .commentsAppended(let list) = update { opened += list }
            if case .commentEdited(let edited) = update, let at = opened.firstIndex(where: { $0.id == edited.id }) { opened[at] = edited }
        }
        comments = opened
        thread = CommentThread(id: roomID, title: title, author: creator, created: created, body: postBody,
                               users: timeline.members.users)
        // Senders met in the state and the page who are no longer members.
        if let joined { departed = Set(timeline.members.names.keys).subtracting(joined.keys).subtracting([me]) }
    }

    /// The room's id, joining it first when the account is not in it (a public room by alias).
    static func joinedRoom(client: MatrixClient, address: MatrixRoomAddress) throws -> String {
        let id = address.isAlias ? try client.resolve(alias: address.identifier) : address.identifier
        if try client.joinedRooms().contains(id) { return id }
        do {
            return try client.join(address.identifier, via: address.via)
        } catch let error as MatrixError where error.status == 403 || error.status == 404 {
            // A room id alone reaches only rooms this server is in; a link's `via` names others.
            let hint = address.isAlias || !address.via.isEmpty ? "" : " (a link to it with ?via=SERVER names a server to join through)"
            throw MatrixError(error.kind, "not joined to \(VisibleText.escape(address.identifier)), and cannot join: \(error.message)\(hint)")
        }
    }

    /// The post: the newest pinned event (the last: Element appends), else the creator's first message.
    ///
    /// The creator's events are read forward from the room's start, which begins with the create
    /// event when this server has the room's history. A room joined over federation has only what
    /// came since the join: forward reading never shows history the server fetched later (Synapse
    /// files backfilled events before its stream's start), so the start is found by paging back
    /// instead, which makes the server backfill it; a room too long for `postSearchPages` has no post.
    static func post(client: MatrixClient, room: String, creator: String, pinned: JSONValue?) throws -> JSONValue? {
        if let newest = pinned?["pinned"]?.array?.last?.string, let event = try? client.event(room: room, id: newest) { return event }
        let filter: JSONValue = ["types": ["m.room.create", "m.room.message"], "senders": [.string(creator)]]
        func isMessage(_ event: JSONValue) -> Bool { event["type"]?.string == "m.room.message" && event["sender"]?.string == creator }
        let start = try client.messages(room: room, from: nil, backwards: false, limit: 20, filter: filter)
        if start.events.first?["type"]?.string == "m.room.create" { return start.events.first(where: isMessage) }
        var token: String?
        var earliest: JSONValue?
        for _ in 0..<postSearchPages {
            let page = try client.messages(room: room, from: token, backwards: true, limit: 50, filter: filter)
            for event in page.events {
                if event["type"]?.string == "m.room.create" { return earliest }
                if isMessage(event) { earliest = event }
            }
            guard let end = page.end, !page.events.isEmpty else { break }
            token = end
        }
        return nil
    }

    /// How many pages back the post of a room joined over federation is looked for.
    static let postSearchPages = 5

    /// The sync filter: this room only, a page of timeline, lazy-loaded members, typing, the
    /// read marker; no presence or other account data.
    static func filter(room: String, pageSize: Int) -> JSONValue {
        [
            "presence": ["not_types": ["*"]],
            "account_data": ["not_types": ["*"]],
            "room": [
                "rooms": [.string(room)],
                "timeline": ["limit": .number(Double(pageSize))],
                "state": ["lazy_load_members": true],
                "ephemeral": ["types": ["m.typing"]],
                "account_data": ["types": ["m.fully_read"]],
            ],
        ]
    }
}
