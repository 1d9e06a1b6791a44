import Foundation
import ThreadModel

/// The logged-in accounts: their connections and what home asks of their rooms.
extension CommentClient {
    /// Each account's connection, for home's status bar.
    var accountConnections: [(account: String, state: ConnectionState)] {
        connections.keys.sorted().map { ($0, connections[$0]!) }
    }

    /// Takes what background work told.
    func receive(_ message: ClientMailbox.Message) {
        switch message {
        case .summaries(let account?, let rows):
            weighRoomChanges(from: summaries, to: rows)
            let kept = summaries.filter { $0.key.account != account }
            summaries = kept
            for row in rows { summaries[row.key] = row }
        case .summaries(nil, let rows):
            for row in rows { summaries[row.key] = row }
        case .connection(let account, let state):
            connections[account] = state
        case .message(let text, let isError):
            say(text, error: isError)
        }
    }

    /// Joins the room of an invite and opens it.
    func accept(_ key: ThreadKey) { say("invites cannot be accepted yet", error: true) }

    /// Refuses an invite.
    func decline(_ key: ThreadKey) { say("invites cannot be declined yet", error: true) }

    /// Leaves a room (home asked first).
    func leave(_ key: ThreadKey) { say("rooms cannot be left yet", error: true) }
}
