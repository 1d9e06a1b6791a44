/// Where a kept room key came from when not from the device that made the session (an
/// `m.room_key` over Olm, signed by the session). Such a key was handed on: it proves nothing
/// about who made the session beyond what we trust in whoever handed it on.
enum RoomKeyOrigin: String, Codable, Sendable {
    /// An `m.forwarded_room_key` from one of our own verified devices, which we asked.
    case forwarded
    /// A key export file (`comment-tui keys import`).
    case imported
}
