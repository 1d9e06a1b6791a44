import ThreadModel

/// User ids by lowercased handle, for the mentions in comment bodies: of two users whose handles
/// clash, the first by id wins. Kept as users come and change (a member storm brings many),
/// never built again whole for one of them.
struct HandleIndex {
    private var ids: [String: String] = [:]
    /// How many users hold each lowercased handle (more than one: a clash).
    private var holders: [String: Int] = [:]

    init(_ users: some Sequence<User>) {
        for user in users { insert(user) }
    }

    /// The user id with a handle (case-insensitive).
    subscript(handle: String) -> String? { ids[handle.lowercased()] }

    /// A user was added to `thread` (`old`: as it was before, if known); `thread` has it already.
    mutating func replace(_ old: User?, with user: User, in thread: CommentThread) {
        if let old {
            if old.handle.lowercased() == user.handle.lowercased() { return }
            remove(old, from: thread)
        }
        insert(user)
    }

    private mutating func insert(_ user: User) {
        let key = user.handle.lowercased()
        holders[key, default: 0] += 1
        if let id = ids[key], id <= user.id { return }
        ids[key] = user.id
    }

    private mutating func remove(_ user: User, from thread: CommentThread) {
        let key = user.handle.lowercased()
        let left = (holders[key] ?? 1) - 1
        holders[key] = left > 0 ? left : nil
        guard ids[key] == user.id else { return }
        // Only a clashing handle looks through the users, for the next by id to take it.
        ids[key] = left > 0 ? thread.users.first { $0.handle.lowercased() == key }?.id : nil
    }
}
