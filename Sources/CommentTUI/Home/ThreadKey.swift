import Foundation

/// Which thread, across the whole client: a room of one logged-in account, a thread file, or the
/// demo. Home lists threads by it, the switcher jumps by it, and the coordinator keeps each open
/// thread's session under it, so a draft or a position is never mixed up between threads.
public enum ThreadKey: Hashable, Codable, Sendable, CustomStringConvertible {
    /// A room (joined, or an invite) of the account `account` (`@user:server`), by room id.
    case room(account: String, roomID: String)
    /// A post in a room (a Matrix thread) of the account, by room id and root event id.
    case post(account: String, roomID: String, root: String)
    /// A thread file, by its absolute path.
    case file(path: String)
    /// The built-in demo thread.
    case demo

    public var description: String {
        switch self {
        case .room(let account, let roomID): "\(account) \(roomID)"
        case .post(let account, let roomID, let root): "\(account) \(roomID)/\(root)"
        case .file(let path): path
        case .demo: "demo"
        }
    }

    /// The room a post is in (its row goes under the room's); nil for anything else.
    public var postRoom: ThreadKey? {
        if case .post(let account, let roomID, _) = self { return .room(account: account, roomID: roomID) }
        return nil
    }

    /// A post's locator, `matrix:<roomID>/<rootEventID>` (what opens it); nil for anything else.
    public var postLocator: String? {
        if case .post(_, let roomID, let root) = self { return "matrix:\(roomID)/\(root)" }
        return nil
    }

    /// The account a room belongs to; nil for a file or the demo.
    public var account: String? {
        if case .room(let account, _) = self { return account }
        if case .post(let account, _, _) = self { return account }
        return nil
    }
}
