import Foundation
import ThreadModel

/// What home knows of one room of an account, kept across sync answers: an incremental answer
/// carries only what changed, so a name, the heroes, the counts and the newest message stay until
/// the server says otherwise. Codable, so the home cache can resume incremental syncs after a
/// restart without losing what earlier answers said.
///
/// Everything in it came from a homeserver and is bounded here (`MatrixAccountRooms` limits).
struct MatrixAccountRoom: Codable, Equatable, Sendable {
    /// Whether the account is in the room or only invited.
    enum Membership: String, Codable, Sendable { case join, invite }

    /// A member as its `m.room.member` event said.
    struct Member: Codable, Equatable, Sendable {
        /// The display name; nil when none is set.
        var name: String?
        /// Joined or invited (a member who left still names an empty room).
        var isPresent: Bool
    }

    /// The newest message, as a home row shows it.
    struct Preview: Codable, Equatable, Sendable {
        var eventID: String
        var sender: String
        /// Markup, as the feed would show the comment (spoilers from `formatted_body`), cut short.
        var body: String
        var time: Date
    }

    var membership: Membership
    /// `m.room.name`, when set and not empty.
    var name: String?
    /// `m.room.canonical_alias`'s alias, when valid.
    var alias: String?
    /// `m.heroes`, as the server last sent them.
    var heroes: [String] = []
    var joinedCount: Int?
    var invitedCount: Int?
    /// Members seen (lazy-loaded: senders, heroes, state), by user id; bounded.
    var members: [String: Member] = [:]
    var isEncrypted = false
    /// `m.room.join_rules`'s rule; nil while unknown (then the room counts as private).
    var joinRule: String?
    var preview: Preview?
    /// The newest event's time of any kind: the activity of a room with no message yet.
    var lastEventTime: Date?
    var unread = 0
    var highlights = 0
    /// The unread counts of the room's posts (Matrix threads) by root, those with any
    /// (`MatrixAccountRoom+Posts`); nil in copies from before they were kept.
    var postCounts: [String: PostCounts]?
    /// All its posts' unread counts summed (kept apart from `unread`, which is the main
    /// timeline's when the server counts posts apart); nil: none.
    var postsTotal: PostCounts?
    /// The room's newest posts, as its server last listed them (`MatrixRoomPosts`); nil: not asked.
    var posts: MatrixRoomPosts?
    /// Roots marked as posts (`MatrixPostMark`) seen in the timeline, newest first, until the
    /// room's `/threads` lists them (`MatrixAccountRoom+MarkedPosts`); nil: none seen.
    var markedPosts: [MatrixRoomPosts.Post]?
    /// Who may redact others' events (its power levels), for redactions of marked roots; nil:
    /// not known (then only a root's sender's redaction is honoured).
    var redactPower: MatrixRedactPower?
    /// User ids typing now, the reader excluded.
    var typing: [String] = []
    /// Who invited the account, and when (the invite's `origin_server_ts`, when the server sent it).
    var inviter: String?
    var invitedAt: Date?
    /// The invite said the room is a direct one (`is_direct`).
    var isDirectInvite = false
    /// The event `m.fully_read` is on.
    var fullyRead: String?

    init(membership: Membership) { self.membership = membership }

    /// Applies one state event (from `state`, the timeline, or an invite's stripped state).
    mutating func apply(stateEvent event: JSONValue, limits: MatrixAccountRooms.Limits) {
        guard let type = event["type"]?.string, let stateKey = event["state_key"]?.string else { return }
        let content = event["content"]
        switch type {
        case "m.room.name" where stateKey.isEmpty:
            name = content?["name"]?.string.map { limits.cut($0, bytes: limits.nameBytes) }.flatMap { $0.isEmpty ? nil : $0 }
        case "m.room.canonical_alias" where stateKey.isEmpty:
            alias = content?["alias"]?.string.flatMap(Self.validAlias)
        case "m.room.encryption" where stateKey.isEmpty:
            // Encryption is never switched off again: a later event, even an empty one, keeps it on.
            isEncrypted = true
        case "m.room.power_levels" where stateKey.isEmpty:
            redactPower = content.flatMap { $0.object == nil ? nil : MatrixRedactPower(levels: $0) }
        case "m.room.join_rules" where stateKey.isEmpty:
            joinRule = content?["join_rule"]?.string.map { limits.cut($0, bytes: 64) }
        case "m.room.member":
            guard MatrixGrammar.isUserID(stateKey) else { return }
            let membership = content?["membership"]?.string
            let name = content?["displayname"]?.string.map { limits.cut($0, bytes: limits.nameBytes) }
            setMember(stateKey, Member(name: name.flatMap { $0.isEmpty ? nil : $0 },
                                       isPresent: membership == "join" || membership == "invite"), limits: limits)
        default:
            break
        }
    }

    /// Keeps a member, within `limits.membersPerRoom`: when full, one not needed for the row (a
    /// hero, the preview's author, someone typing, the inviter) makes room.
    private mutating func setMember(_ id: String, _ member: Member, limits: MatrixAccountRooms.Limits) {
        if members[id] == nil, members.count >= limits.membersPerRoom {
            let needed = Set(heroes + typing + [preview?.sender, inviter].compactMap { $0 })
            guard let spare = members.keys.first(where: { !needed.contains($0) }) else { return }
            members[spare] = nil
        }
        members[id] = member
    }

    /// A member's name as the spec computes it: the display name, else the user id; the user id
    /// after it when another member present has the same display name.
    func displayName(of userID: String) -> String {
        guard let name = members[userID]?.name else { return userID }
        let shared = members.contains { $0.key != userID && $0.value.isPresent && $0.value.name == name }
        return shared ? "\(name) (\(userID))" : name
    }

    /// The room's name by the spec's algorithm (name, canonical alias, heroes, empty room).
    func displayName(me: String) -> String {
        if let name { return name }
        if let alias { return alias }
        var heroes = heroes.filter { $0 != me }
        if heroes.isEmpty, joinedCount == nil {
            // No summary (an invite, a server without lazy loading): the members we know, else
            // who sent the invite.
            heroes = members.filter { $0.key != me && $0.value.isPresent }.keys.sorted()
            if heroes.isEmpty, let inviter, inviter != me { heroes = [inviter] }
        }
        heroes = Array(heroes.prefix(MatrixRoomName.heroesShown))
        let members = joinedCount.map { $0 + (invitedCount ?? 0) } ?? heroes.count + 1
        return MatrixRoomName.fromHeroes(heroes.map(displayName(of:)), memberCount: members)
    }

    /// An alias as the spec shapes it: `#localpart:server`, at most 255 bytes.
    static func validAlias(_ alias: String) -> String? {
        guard alias.hasPrefix("#"), alias.utf8.count <= 255, let colon = alias.firstIndex(of: ":"),
              colon > alias.index(after: alias.startIndex), alias.index(after: colon) < alias.endIndex,
              !alias.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return nil }
        return alias
    }
}
