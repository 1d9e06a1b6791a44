import Foundation

/// The membership calls home makes: an invite is accepted with `join(_:via:)`, declined with
/// `leave(room:)`, and a joined room is left the same way (then forgotten, if the reader asks).
extension MatrixClient {
    /// Leaves a room, or declines an invite to it (both are a leave).
    /// - Parameter reason: said to the room's other members, when given.
    public func leave(room: String, reason: String? = nil) throws {
        try request("POST", ["rooms", room, "leave"], body: .object(reason.map { ["reason": .string($0)] } ?? [:]))
    }

    /// Forgets a room left before: its history is no longer the account's to read, and the server
    /// stops listing it among the left rooms.
    public func forget(room: String) throws {
        try request("POST", ["rooms", room, "forget"], body: .object([:]))
    }
}
