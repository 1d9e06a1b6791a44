import Foundation
import ThreadModel

/// Opening a room as a thread: its id, header, members, newest page and sync position.
///
/// One filtered `/sync` gives the newest page, the state and the read marker together, or, where
/// the account's sync has a position, a page back from it and the room's state (`+Position`);
/// the joined members fill the mention list; the post is the pinned event, else the creator's
/// first message (one page from the room's start).
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
    /// Where `fullyRead` stands among `comments` when the opening page holds its event: the
    /// last comment at or before it (it may be an edit, a reaction, the post), -1 when no
    /// comment is; nil when the page does not hold it.
    var fullyReadPosition: Int?
    var filter: JSONValue
    /// Who may notify the room, as of the opening page (nil from the cache: asked for when needed).
    var power: MatrixReaderMention.Power?
    /// Users the room's state or page names who are not members now (left, kicked, banned).
    var departed: Set<String> = []
    /// Whether it came from the cache (nothing asked of the server yet).
    var isFromCache = false

    /// The room as the cache last saw it: no request at all, so it opens offline too.
    /// `root`: the post the snapshot is of (its cache is keyed by it), nil for the room's feed.
    init(snapshot: MatrixRoomCache.Snapshot, me: String, pageSize: Int, root: String? = nil) {
        self.me = me
        roomID = snapshot.roomID
        label = snapshot.label
        // The label is the alias when the room has one.
        alias = snapshot.label.hasPrefix("#") && snapshot.label.contains(":") ? snapshot.label : nil
        var members = MatrixMembers(me: me)
        // The handles as they were: a reopen does not number them again (an @mention keeps its person).
        members.update(Dictionary(snapshot.users.map { ($0.id, Optional($0.name)) }, uniquingKeysWith: { a, _ in a }),
                       held: Dictionary(snapshot.users.map { ($0.id, $0.handle) }, uniquingKeysWith: { a, _ in a }))
        timeline = MatrixTimeline(members: members)
        timeline.postEventID = snapshot.postEventID
        if let root { timeline.scope = .post(root: root); timeline.postEventID = root }
        if snapshot.isEncrypted { _ = timeline.switchEncryptionOn() }
        timeline.adopt(snapshot.comments, placeholders: snapshot.placeholders)
        for (id, reaction) in snapshot.reactions { _ = timeline.reactions.add(eventID: id, reaction) }
        for (root, entry) in snapshot.posts { timeline.threadSummaries.adopt(root: root, entry) }
        comments = snapshot.comments
        let header = snapshot.header
        thread = CommentThread(id: roomID, title: header.title, author: header.author, created: header.created, body: header.body,
                               users: timeline.members.users)
        olderToken = snapshot.olderToken
        nextBatch = snapshot.nextBatch
        fullyRead = snapshot.fullyRead
        filter = Self.filter(room: roomID, pageSize: pageSize, receipts: root != nil)
        isFromCache = true
    }

    /// What an opening read from the server, before it is made into the thread: each way of
    /// opening (an initial sync of the room; the account's sync's position) gathers it, and the
    /// rest (title, label, post, members, comments, the read marker's page) is shared.
    struct Start {
        var roomID: String
        var isEncrypted: Bool
        /// Member events from before the page (its senders'), applied before it.
        var stateEvents: [JSONValue]
        /// The newest page, oldest first.
        var timelineEvents: [JSONValue]
        /// The room's state, the newest of each type and state key (keyed `type\0key`).
        var current: [String: JSONValue]
        var fullyRead: String?
        var olderToken: String?
        var nextBatch: String?
        /// The joined members and their names, when the start read them (nil: asked for).
        var joined: [String: String?]?
        /// The room in the newest sync the start read, if it did: its posts' unread counts and
        /// our threaded receipts (`MatrixTimeline.postsRead`).
        var syncedRoom: JSONValue?
    }

    /// - Parameter joinsEncrypted: join an encrypted room the account is not in (only invited
    ///   to, or public); without it such a room is refused before joining when the server says
    ///   so beforehand (an invite's state, the room's summary). Where it cannot say (an invite
    ///   without `m.room.encryption` in its state, a server without room summaries), the room is
    ///   joined and, if encrypted, opens read-only.
    /// - Parameter position: where the account's sync stands (`MatrixAccountSync.position`):
    ///   a joined room opens from there with no sync of its own (`+Position`); nil, or a room
    ///   to join first, opens with an initial sync of the room.
    /// - Parameter sync: the account's sync, running, whose first answer a joined room waits
    ///   for (`MatrixAccountSync.positionWait` at most) when no position is given: Synapse
    ///   takes about as long for the room's own initial sync, and the server does one, not two.
    init(client: MatrixClient, address: MatrixRoomAddress, me: String, pageSize: Int, joinsEncrypted: Bool = false,
         position: String? = nil, awaiting sync: MatrixAccountSync? = nil) throws {
        let known = position ?? sync?.position
        let atPosition = known != nil || sync?.isRunning == true
        let start = try (atPosition ? Self.start(client: client, address: address, me: me, pageSize: pageSize, at: {
            known ?? sync?.awaitPosition(timeout: MatrixAccountSync.positionWait)
        }) : nil)
            ?? Self.syncStart(client: client, address: address, me: me, pageSize: pageSize, joinsEncrypted: joinsEncrypted,
                              roomKeys: sync?.roomKeys)
        try self.init(start: start, client: client, address: address, me: me, pageSize: pageSize, roomKeys: sync?.roomKeys)
    }

    /// The start read with an initial sync of the room alone (and a catch-up), joining it first.
    static func syncStart(client: MatrixClient, address: MatrixRoomAddress, me: String, pageSize: Int,
                          joinsEncrypted: Bool, roomKeys: MatrixRoomKeys? = nil) throws -> Start {
        let roomID = try Self.joinedRoom(client: client, address: address, joinsEncrypted: joinsEncrypted)
        // Encrypted rooms open decrypted where the keys are at hand (else their events as rows that say why).
        let isEncrypted = try client.stateContent(room: roomID, type: "m.room.encryption") != nil
        // Synapse keeps each sync's answer for a while (two minutes), keyed by the request: an
        // opening asks with a filter of its own (leaving out a room that cannot exist), so a
        // reopen is never given an earlier opening's answers, which lack what came since.
        let openingFilter = Self.filter(room: roomID, pageSize: pageSize, leavingOut: "!comment-tui-\(UUID().uuidString):opening.invalid")
        let sync = try client.sync(since: nil, filter: openingFilter, wait: 0)
        // A sync hands out the device's to-device messages (room keys) once: they are taken here.
        roomKeys?.take(sync)
        let room = sync["rooms"]?["join"]?[roomID]
        var stateEvents = room?["state"]?["events"]?.array ?? []
        var timelineEvents = room?["timeline"]?["events"]?.array ?? []
        var fullyRead = (room?["account_data"]?["events"]?.array ?? [])
            .first { $0["type"]?.string == "m.fully_read" }?["content"]?["event_id"]?.string
        var olderToken: String?
        if room?["timeline"]?["limited"]?.bool == true { olderToken = room?["timeline"]?["prev_batch"]?.string }
        // A server may answer a repeated initial sync from a cache (Synapse does, for two
        // minutes, unless the request differs as above), missing what came since: catch up at once.
        let catchUp = try client.sync(since: sync["next_batch"]?.string, filter: openingFilter, wait: 0)
        roomKeys?.take(catchUp)
        let nextBatch = catchUp["next_batch"]?.string ?? sync["next_batch"]?.string
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
        for event in stateEvents + timelineEvents { Self.note(event, in: &current) }
        if fullyRead == nil { fullyRead = try? client.fullyRead(room: roomID, userID: me) }
        return Start(roomID: roomID, isEncrypted: isEncrypted, stateEvents: stateEvents, timelineEvents: timelineEvents,
                     current: current, fullyRead: fullyRead, olderToken: olderToken, nextBatch: nextBatch, joined: nil,
                     syncedRoom: catchUp["rooms"]?["join"]?[roomID] ?? room)
    }

    /// Puts a state event in `current` under its type and state key (over an older one); not a state event, nothing.
    static func note(_ event: JSONValue, in current: inout [String: JSONValue]) {
        guard event["state_key"] != nil else { return }
        current["\(event["type"]?.string ?? "")\u{0}\(event["state_key"]?.string ?? "")"] = event
    }

    /// The thread made of what a start read: the header, the post, the members, the comments,
    /// and one page more when the read marker is just before the page.
    private init(start: Start, client: MatrixClient, address: MatrixRoomAddress, me: String, pageSize: Int,
                 roomKeys: MatrixRoomKeys? = nil) throws {
        self.me = me
        roomID = start.roomID
        filter = Self.filter(room: roomID, pageSize: pageSize)
        var stateEvents = start.stateEvents
        var timelineEvents = start.timelineEvents
        let current = start.current
        fullyRead = start.fullyRead
        olderToken = start.olderToken
        nextBatch = start.nextBatch
        func content(_ type: String) -> JSONValue? { current["\(type)\u{0}"]?["content"] }
        // The create event is before a new member's timeline: ask for it whole (its sender is the
        // creator; from room version 11 on the content no longer says).
        let create = try current["m.room.create\u{0}"]
            ?? client.request("GET", ["rooms", roomID, "state", "m.room.create", ""], query: ["format": "event"])
        let creator = create["sender"]?.string ?? create["content"]?["creator"]?.string ?? me
        let created = MatrixServerNumber.time(milliseconds: create["origin_server_ts"])
        alias = address.isAlias ? address.identifier : content("m.room.canonical_alias")?["alias"]?.string
        let title = content("m.room.name")?["name"]?.string ?? alias ?? address.identifier
        label = alias ?? content("m.room.name")?["name"]?.string.map { VisibleText.escape($0) } ?? address.identifier
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
        power = MatrixReaderMention.Power(levels: content("m.room.power_levels"), create: create)

        var members = MatrixMembers(me: me)
        let joined = start.joined ?? (try? client.joinedMembers(room: roomID))
        members.update(joined ?? [:])
        timeline = MatrixTimeline(members: members)
        timeline.decryption = roomKeys.map { MatrixRoomDecryption(roomID: start.roomID, keys: $0) }
        if start.isEncrypted { _ = timeline.switchEncryptionOn() }
        _ = timeline.applyState(stateEvents)

        // An encrypted post is read decrypted where its key is at hand.
        let post = try Self.post(client: client, room: roomID, creator: creator, pinned: content("m.room.pinned_events"))
            .map { [decryption = timeline.decryption] in decryption?.open($0).event ?? $0 }
        timeline.postEventID = post?["event_id"]?.string
        let reader = MatrixEventReader(handle: { [members = timeline.members] in members.handles[$0] },
                                       name: { [members = timeline.members] in members.name(of: $0) })
        // An encrypted post says so, as its row would (the post has no row of its own).
        let isEncryptedPost = post?["type"]?.string == "m.room.encrypted" && post?["content"]?.object?.isEmpty == false
        let postBody = isEncryptedPost ? MatrixEncryptedEvent.body
            : post.flatMap { $0["content"] }.flatMap { reader.markdown(of: $0, sender: creator, isReply: false) }
            ?? content("m.room.topic")?["topic"]?.string.map { MatrixHTMLReader.markdown(fromPlainText: $0, isReply: false) } ?? ""

        var opened: [Comment] = []
        for update in timeline.applyNewer(timelineEvents) {
            if case .commentsAppended(let list) = update { opened += list }
            if case .commentEdited(let edited) = update, let at = opened.firstIndex(where: { $0.id == edited.id }) { opened[at] = edited }
        }
        comments = opened
        if let room = start.syncedRoom { _ = timeline.postsRead(in: room) }
        if let fullyRead, let at = timelineEvents.firstIndex(where: { $0["event_id"]?.string == fullyRead }) {
            let upToMarker = Set(timelineEvents[...at].compactMap { $0["event_id"]?.string })
            fullyReadPosition = opened.lastIndex { upToMarker.contains($0.id) } ?? -1
        }
        thread = CommentThread(id: roomID, title: title, author: creator, created: created, body: postBody,
                               users: timeline.members.users)
        // Senders met in the state and the page who are no longer members.
        if let joined { departed = Set(timeline.members.names.keys).subtracting(joined.keys).subtracting([me]) }
    }

    /// The room's id, joining it first when the account is not in it (a public room by alias, an
    /// invite); a room known to be encrypted is not joined unless `joinsEncrypted`.
    static func joinedRoom(client: MatrixClient, address: MatrixRoomAddress, joinsEncrypted: Bool) throws -> String {
        let id = address.isAlias ? try client.resolve(alias: address.identifier) : address.identifier
        if try client.joinedRooms().contains(id) { return id }
        if !joinsEncrypted {
            let invited = try isInvitedToEncryptedRoom(client: client, room: id)
            if invited || summarySaysEncrypted(client: client, room: id) {
                throw MatrixError(.server(status: 0, errcode: nil), """
                    this room is end-to-end encrypted and you are \(invited ? "only invited to it" : "not in it"): \
                    comment-tui cannot send encrypted messages yet, so it did not join. Join it from a client \
                    with encryption (such as Element), or open it with --join-encrypted to join and read it here \
                    (nothing is sent)
                    """)
            }
        }
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

    /// Whether the account is invited to `room` and the invite's state says it is encrypted
    /// (`m.room.encryption` is among the state servers share with invitees).
    static func isInvitedToEncryptedRoom(client: MatrixClient, room: String) throws -> Bool {
        let filter = MatrixAccountFilter.oneRoom(room, stateTypes: ["m.room.encryption"])
        let invite = try client.sync(since: nil, filter: filter, wait: 0)["rooms"]?["invite"]?[room]
        return (invite?["invite_state"]?["events"]?.array ?? []).contains { $0["type"]?.string == "m.room.encryption" }
    }

    /// Whether the room's summary (`GET /_matrix/client/v1/room_summary`, which a server gives
    /// for a room one may join) names an encryption algorithm; false when it cannot be read.
    static func summarySaysEncrypted(client: MatrixClient, room: String) -> Bool {
        guard let summary = try? client.request("GET", ["v1", "room_summary", room]) else { return false }
        return [summary["encryption"], summary["im.nheko.summary.encryption"]].contains { $0?.string != nil }
    }

    /// How many pages back the post of a room joined over federation is looked for.
    static let postSearchPages = 5

    /// The sync filter: this room only, a page of timeline, lazy-loaded members, typing, the
    /// read marker; no presence or other account data.
    /// `leavingOut`: a room id left out, which changes the request and nothing it returns.
    static func filter(room: String, pageSize: Int, leavingOut: String? = nil, receipts: Bool = false) -> JSONValue {
        var filter: JSONValue = [
            "presence": ["not_types": ["*"]],
            "account_data": ["not_types": ["*"]],
            "room": [
                "rooms": [.string(room)],
                "timeline": ["limit": .number(Double(pageSize)), "unread_thread_notifications": true],
                "state": ["lazy_load_members": true],
                // A post's: our threaded receipt, moved by another client while its copy was closed.
                "ephemeral": ["types": receipts ? ["m.typing", "m.receipt"] : ["m.typing"]],
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
