/// The users of a thread file as its records define them, in file order: the latest record per
/// id; a record claiming a handle another id owns (ignoring case) is skipped.
///
/// One rule for the index (`ThreadIndexScan`) and for `post`'s persisted users
/// (`ThreadUserIndex`), so both agree on who owns a handle.
struct ThreadUserTable: Sendable {
    private(set) var usersByID: [String: User] = [:]
    private var userIDsByHandle: [String: String] = [:]

    init() {}

    /// A table holding `users`, which must already keep the rule (one id per handle).
    init(users: [User]) {
        for user in users { _ = add(user) }
    }

    /// Adds a user record; returns the problem when the record is skipped.
    mutating func add(_ user: User) -> String? {
        let key = user.handle.lowercased()
        if let owner = userIDsByHandle[key], owner != user.id {
            return "handle \"\(user.handle)\" already belongs to user \(owner), skipped"
        }
        if let previous = usersByID[user.id] { userIDsByHandle[previous.handle.lowercased()] = nil }
        usersByID[user.id] = user
        userIDsByHandle[key] = user.id
        return nil
    }

    /// Every user, by id.
    var sortedUsers: [User] { usersByID.values.sorted { $0.id < $1.id } }
}
