import Foundation
import ThreadModel

/// What home knows of one account's rooms: fed every `/sync` answer of the account (the first,
/// then each incremental one), it keeps each joined room and pending invite and lists them as
/// home rows (`summaries`). Pure: no I/O, no clock; the account's sync loop feeds it, the home
/// cache keeps it between runs.
///
/// An incremental answer carries only what changed, so each room's name, heroes, counts and
/// newest message stay until the server says otherwise. Everything in an answer is hostile:
/// values of the wrong type are skipped, texts are cut (`Limits`), and the numbers of rooms,
/// members and names kept are bounded.
public struct MatrixAccountRooms: Codable, Equatable, Sendable {
    /// Bounds on what a server can make this keep.
    public struct Limits: Equatable, Sendable {
        /// A room's name or alias, a member's display name, in UTF-8 bytes.
        public var nameBytes = 256
        /// A preview's markup, in UTF-8 bytes (a row shows one line of it).
        public var previewBytes = 1024
        /// Members kept per room (lazy loading sends few: senders and heroes).
        public var membersPerRoom = 256
        /// Rooms kept (joined and invited); more are ignored until some are left.
        public var rooms = 10_000
        /// Rooms named direct by `m.direct`.
        public var directRooms = 10_000
        /// Names listed as typing in one room.
        public var typing = 10
        /// Heroes kept from a summary.
        public var heroes = 10
        /// Posts (threads) per room whose unread counts are kept.
        public var postCounts = 200
        /// Roots marked as posts with no replies yet kept per room (the newest).
        public var markedPosts = 20

        public init() {}

        /// `text` cut to at most `bytes` UTF-8 bytes, between Unicode scalars.
        func cut(_ text: String, bytes: Int) -> String {
            guard text.utf8.count > bytes else { return text }
            var kept = 0
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                kept += UTF8.width(scalar)
                guard kept <= bytes else { break }
                scalars.append(scalar)
            }
            return String(scalars)
        }
    }

    /// The account (`@user:server`) whose rooms these are.
    public let account: String
    /// Not kept in the cache: a copy read back gets this client's limits, never the file's.
    public var limits = Limits()
    /// The rooms by id.
    private(set) var rooms: [String: MatrixAccountRoom] = [:]

    /// Puts the lock back in place of encrypted rooms' previews (`withoutDecryptedText`).
    mutating func maskEncryptedPreviews() {
        for (id, room) in rooms where room.isEncrypted && room.preview.map({ $0.body != MatrixEventReader.deleted }) == true {
            rooms[id]?.preview?.body = MatrixEncryptedEvent.body
        }
    }
    /// The rooms the account's `m.direct` names.
    private(set) var directRooms: Set<String> = []

    private enum CodingKeys: String, CodingKey { case account, rooms, directRooms }

    /// No rooms known yet, for `account`.
    public init(account: String, limits: Limits = Limits()) {
        self.account = account
        self.limits = limits
    }

    /// The ids of the rooms known (joined and invited).
    public var roomIDs: [String] { rooms.keys.sorted() }

    /// The event the account's `m.fully_read` marker is on in a room, if the server said.
    public func fullyRead(roomID: String) -> String? { rooms[roomID]?.fullyRead }

    /// How many members of a room are kept (bounded by `limits.membersPerRoom`).
    func memberCount(roomID: String) -> Int { rooms[roomID]?.members.count ?? 0 }

    /// Takes in one `/sync` answer, the first or an incremental one.
    /// - Parameter time: when it arrived, if the caller knows: an invite whose event has no time
    ///   (Synapse's stripped state has none) is dated when it was first seen, so it sorts among
    ///   the rooms' activity. Never read from a clock here.
    public mutating func apply(sync answer: JSONValue, at time: Date? = nil) {
        for event in answer["account_data"]?["events"]?.array ?? [] where event["type"]?.string == "m.direct" {
            applyDirect(event["content"])
        }
        let sections = answer["rooms"]
        // Left first: a room the answer also lists as joined or invited is that now.
        for roomID in (sections?["leave"]?.object ?? [:]).keys { rooms[roomID] = nil }
        for (roomID, entry) in sections?["join"]?.object ?? [:] where Self.isRoomID(roomID) {
            applyJoined(roomID, entry)
        }
        for (roomID, entry) in sections?["invite"]?.object ?? [:] where Self.isRoomID(roomID) {
            applyInvite(roomID, entry, at: time)
        }
    }

    /// Takes a joined room's newest posts (a page of its `/threads`, `MatrixAccountRoom+Posts`);
    /// false when the room is not known.
    @discardableResult
    mutating func setPosts(roomID: String, _ posts: MatrixRoomPosts) -> Bool {
        guard rooms[roomID]?.membership == .join else { return false }
        rooms[roomID]?.posts = posts
        rooms[roomID]?.forgetMarkedPosts(listedIn: posts)
        return true
    }

    /// Forgets who is typing everywhere (a copy kept between runs: stale by the next start).
    public mutating func forgetTyping() {
        for id in rooms.keys { rooms[id]?.typing = [] }
    }

    /// Every room as a home row, newest activity first (rooms with none last, by id), and the
    /// rows of rooms' posts (home puts them under their room).
    public var summaries: [ThreadSummary] {
        rooms.flatMap { [summary(roomID: $0.key, room: $0.value)] + postSummaries(roomID: $0.key, room: $0.value) }.sorted { a, b in
            switch (a.activity, b.activity) {
            case let (x?, y?) where x != y: x > y
            case (_?, nil): true
            case (nil, _?): false
            default: a.key.description < b.key.description
            }
        }
    }

    /// One room's row, if the room is known.
    public func summary(roomID: String) -> ThreadSummary? {
        rooms[roomID].map { summary(roomID: roomID, room: $0) }
    }

    private func summary(roomID: String, room: MatrixAccountRoom) -> ThreadSummary {
        let isInvite = room.membership == .invite
        return ThreadSummary(
            key: .room(account: account, roomID: roomID),
            name: room.displayName(me: account),
            preview: room.preview?.body,
            author: room.preview.map { room.displayName(of: $0.sender) },
            activity: isInvite ? room.invitedAt : room.preview?.time ?? room.lastEventTime,
            unread: room.rowCounts.unread,
            highlights: room.rowCounts.highlights,
            typing: room.typing.map(room.displayName(of:)),
            isEncrypted: room.isEncrypted,
            isDirect: directRooms.contains(roomID) || room.isDirectInvite,
            isPrivate: room.joinRule != "public",
            invite: isInvite ? ThreadSummary.Invite(inviter: room.inviter.map(room.displayName(of:))) : nil)
    }

    /// `m.direct`: user ids to lists of room ids; the whole set each time it comes.
    private mutating func applyDirect(_ content: JSONValue?) {
        guard let users = content?.object else { return }
        var direct: Set<String> = []
        for list in users.values {
            for roomID in list.array ?? [] {
                guard let id = roomID.string, Self.isRoomID(id), direct.count < limits.directRooms else { continue }
                direct.insert(id)
            }
        }
        directRooms = direct
    }

    private mutating func applyJoined(_ roomID: String, _ entry: JSONValue) {
        var room: MatrixAccountRoom
        if let known = rooms[roomID], known.membership == .join {
            room = known
        } else {
            // New, or an invite accepted: the answer brings the joined room's state whole.
            guard rooms[roomID] != nil || rooms.count < limits.rooms else { return }
            room = MatrixAccountRoom(membership: .join)
        }
        if let summary = entry["summary"] {
            if let heroes = summary["m.heroes"]?.array {
                room.heroes = Array(heroes.compactMap(\.string).filter(MatrixGrammar.isUserID).prefix(limits.heroes))
            }
            if let joined = Self.count(summary["m.joined_member_count"]) { room.joinedCount = joined }
            if let invited = Self.count(summary["m.invited_member_count"]) { room.invitedCount = invited }
        }
        for event in entry["state"]?["events"]?.array ?? [] { room.apply(stateEvent: event, limits: limits) }
        let timeline = entry["timeline"]?["events"]?.array ?? []
        for event in timeline where event["state_key"]?.string != nil { room.apply(stateEvent: event, limits: limits) }
        MatrixRoomPreviewReader(limits: limits).apply(timeline: timeline, to: &room)
        room.noteMarkedPosts(in: timeline, limits: limits)
        for event in entry["ephemeral"]?["events"]?.array ?? [] where event["type"]?.string == "m.typing" {
            let ids = event["content"]?["user_ids"]?.array?.compactMap(\.string) ?? []
            room.typing = Array(ids.filter { $0 != account && MatrixGrammar.isUserID($0) }.prefix(limits.typing))
        }
        for event in entry["account_data"]?["events"]?.array ?? [] where event["type"]?.string == "m.fully_read" {
            if let id = event["content"]?["event_id"]?.string, id.utf8.count <= 255 { room.fullyRead = id }
        }
        // Each count as the server says; one missing from an answer keeps the last.
        if let counts = entry["unread_notifications"] {
            if let unread = Self.count(counts["notification_count"]) { room.unread = unread }
            if let highlights = Self.count(counts["highlight_count"]) { room.highlights = highlights }
            // Counted per post as well (the filter asks): the room's own are its main timeline's
            // then, and its row counts its posts' too (added for the row only).
            room.notePostCounts(entry["unread_thread_notifications"], most: limits.postCounts)
        }
        rooms[roomID] = room
    }

    /// An invite: its stripped state comes whole each time the room is listed.
    private mutating func applyInvite(_ roomID: String, _ entry: JSONValue, at time: Date?) {
        guard rooms[roomID] != nil || rooms.count < limits.rooms else { return }
        var room = MatrixAccountRoom(membership: .invite)
        let known = rooms[roomID].flatMap { $0.membership == .invite ? $0.invitedAt : nil }
        room.invitedAt = known ?? time
        let events = entry["invite_state"]?["events"]?.array ?? []
        for event in events { room.apply(stateEvent: event, limits: limits) }
        // The account's own member event is the invite: its sender invited, its time is when.
        if let invite = events.last(where: {
            $0["type"]?.string == "m.room.member" && $0["state_key"]?.string == account
                && $0["content"]?["membership"]?.string == "invite"
        }) {
            room.inviter = invite["sender"]?.string.flatMap { MatrixGrammar.isUserID($0) ? $0 : nil }
            if invite["origin_server_ts"] != nil { room.invitedAt = MatrixServerNumber.time(milliseconds: invite["origin_server_ts"]) }
            room.isDirectInvite = invite["content"]?["is_direct"]?.bool == true
        }
        rooms[roomID] = room
    }

    /// A count: a whole number, at least 0 (a negative or fractional one is no count).
    static func count(_ value: JSONValue?) -> Int? {
        guard let n = value?.int, n >= 0 else { return nil }
        return min(n, 1_000_000_000)
    }

    /// A room id as the spec shapes it: `!opaque:server` (`!opaque` from room version 12), at
    /// most 255 bytes of printable ASCII.
    static func isRoomID(_ id: String) -> Bool {
        id.hasPrefix("!") && id.utf8.count > 1 && id.utf8.count <= 255 && id.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
