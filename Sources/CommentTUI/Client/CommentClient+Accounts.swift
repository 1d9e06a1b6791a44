import Foundation
import ThreadModel

/// The logged-in accounts: their connections and what home asks of their rooms.
extension CommentClient {
    /// Each account's connection, for home's status bar.
    var accountConnections: [(account: String, state: ConnectionState)] { [] }

    /// Joins the room of an invite and opens it.
    func accept(_ key: ThreadKey) { say("invites cannot be accepted yet", error: true) }

    /// Refuses an invite.
    func decline(_ key: ThreadKey) { say("invites cannot be declined yet", error: true) }

    /// Leaves a room (home asked first).
    func leave(_ key: ThreadKey) { say("rooms cannot be left yet", error: true) }
}
