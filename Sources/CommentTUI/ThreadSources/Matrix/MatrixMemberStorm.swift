import ThreadModel

/// A room's members taking member events as a sync applies them (`MatrixTimeline.applyNewer`),
/// without a homeserver: public for the benchmark's member storms (a 50,000-member room, 500
/// joins sharing a long prefix), which no test server could hold.
public struct MatrixMemberStorm {
    private var timeline: MatrixTimeline

    /// A room of `members` (user id → display name) read by `me`.
    public init(me: String, members: [String: String?]) {
        var known = MatrixMembers(me: me)
        known.update(members)
        timeline = MatrixTimeline(members: known)
    }

    /// Every member as a user, in id order.
    public var users: [User] { timeline.members.users }

    /// One sync's `m.room.member` joins (user id, display name), applied; the updates for the app.
    public mutating func sync(joins: [(id: String, name: String?)]) -> [ThreadUpdate] {
        timeline.applyNewer(joins.map { join in
            var content: [String: JSONValue] = ["membership": "join"]
            if let name = join.name { content["displayname"] = .string(name) }
            return ["type": "m.room.member", "state_key": .string(join.id), "sender": .string(join.id),
                    "event_id": .string("$join-\(join.id)"), "content": .object(content)]
        })
    }
}
