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
    var thread: CommentThread
    var comments: [Comment]
    var timeline: MatrixTimeline
    var olderToken: String?
    var nextBatch: String?
    var fullyRead: String?
    /// Where `fullyRead` stands among `comments` when the opening page holds its event: the
    /// last comment at or before it (it may be an edit, a reaction, the post), -1 when no
    /// comment is; nil when the page does not hold it.
    var fullyReadPosition: Int?
    var filter: JSONValue
    /// Whether it came from the cache (nothing asked of the server yet).
    var isFromCache = false

    /// The room as the cache last saw it: no request at all, so it opens offline too.
    init(snapshot: MatrixRoomCache.Snapshot, me: String, pageSize: Int) {
        self.me = me
        roomID = snapshot.roomID
        label = snapshot.label
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
        // Synapse keeps each sync's answer for a while (two minutes), keyed by the request: an
        // opening asks with a filter of its own (leaving out a room that cannot exist), so a
        // reopen is never given an earlier opening's answers, which lack what came since.
        let openingFilter = Self.filter(room: roomID, pageSize: pageSize, leavingOut: "!comment-tui-\(UUID().uuidString):opening.invalid")
        let sync = try client.sync(since: nil, filter: openingFilter, wait: 0)
        let room = sync["rooms"]?["join"]?[roomID]
        var stateEvents = room?["state"]?["events"]?.array ?? []
        var timelineEvents = room?["timeline"]?["events"]?.array ?? []
        fullyRead = (room?["account_data"]?["events"]?.array ?? [])
            .first { $0["type"]?.string == "m.fully_read" }?["content"]?["event_id"]?.string
        if room?["timeline"]?["limited"]?.bool == true { olderToken = room?["timeline"]?["prev_batch"]?.string }
        // A server may answer a repeated initial sync from a cache (Synapse does, for two
        // minutes, unless the request differs as above), missing what came since: catch up at once.
        let catchUp = try client.sync(since: sync["next_batch"]?.string, filter: openingFilter, wait: 0)
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
        let alias = address.isAlias ? address.identifier : content("m.room.canonical_alias")?["alias"]?.string
        let title = content("m.room.name")?["name"]?.string ?? alias ?? address.identifier
        label = alias ?? content("m.room.name")?["name"]?.string.map { VisibleText.escape($0) } ?? address.identifier
        if fullyRead == nil { fullyRead = try? client.fullyRead(room: roomID, userID: me) }
        // The read marker just before the page (more came while away than a page): one page
        // back, as a sync's gap is filled when the room opens from its offline copy, so both
        // open with the same comments and count the same unread.
        if let fullyRead, let token = olderToken, !timelineEvents.contains(where: { $0["event_id"]?.string == fullyRead }) {
            let page = try client.messages(room: roomID, from: token, backwards: true, limit: pageSize, filter: ["lazy_load_members": true])
            if page.events.contains(where: { $0["event_id"]?.string == fullyRead }) {
                timelineEvents = page.events.reversed() + timelineEvents
                stateEvents += page.state
                olderToken = page.end
            }
        }

        var members = MatrixMembers(me: me)
        members.update((try? client.joinedMembers(room: roomID)) ?? [:])
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
        if let fullyRead, let at = timelineEvents.firstIndex(where: { $0["event_id"]?.string == fullyRead }) {
            let upToMarker = Set(timelineEvents[...at].compactMap { $0["event_id"]?.string })
            fullyReadPosition = opened.lastIndex { upToMarker.contains($0.id) } ?? -1
        }
        thread = CommentThread(id: roomID, title: title, author: creator, created: created, body: postBody,
                               users: timeline.members.users)
    }

    /// The room's id, joining it first when the account is not in it (a public room by alias).
    static func joinedRoom(client: MatrixClient, address: MatrixRoomAddress) throws -> String {
        let id = address.isAlias ? try client.resolve(alias: address.identifier) : address.identifier
        if try client.joinedRooms().contains(id) { return id }
        do {
            return try client.join(address.identifier)
        } catch let error as MatrixError where error.status == 403 || error.status == 404 {
            throw MatrixError(error.kind, "not joined to \(VisibleText.escape(address.identifier)), and cannot join: \(error.message)")
        }
    }

    /// The post: the first pinned event, else the creator's first message.
    ///
    /// The creator's events are read forward from the room's start, which begins with the create
    /// event when this server has the room's history. A room joined over federation has only what
    /// came since the join: forward reading never shows history the server fetched later (Synapse
    /// files backfilled events before its stream's start), so the start is found by paging back
    /// instead, which makes the server backfill it; a room too long for `postSearchPages` has no post.
    static func post(client: MatrixClient, room: String, creator: String, pinned: JSONValue?) throws -> JSONValue? {
        if let first = pinned?["pinned"]?.array?.first?.string, let event = try? client.event(room: room, id: first) { return event }
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
    /// `leavingOut`: a room id left out, which changes the request and nothing it returns.
    static func filter(room: String, pageSize: Int, leavingOut: String? = nil) -> JSONValue {
        var filter: JSONValue = [
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
        if let leavingOut, case .object(var object) = filter, case .object(var room)? = object["room"] {
            room["not_rooms"] = [.string(leavingOut)]
            object["room"] = .object(room)
            filter = .object(object)
        }
        return filter
    }
}
