/// Where a kept room key came from when not from the device that made the session (an
/// `m.room_key` over Olm, signed by the session). Such a key was handed on: it proves nothing
/// about who made the session beyond what we trust in whoever handed it on (the spec's
/// warning), and the comment's detail (F2) says so.
enum RoomKeyOrigin: String, Codable, Sendable {
    /// An `m.forwarded_room_key` from one of our own verified devices, which we asked.
    case forwarded
    /// A key export file (`comment-tui keys import`).
    case imported
    /// Restored from the account's server-side key backup.
    case backup

    /// The words for a comment decrypted with such a key.
    var words: String {
        switch self {
        case .forwarded: "its key was forwarded by another of your devices: who sent it cannot be proven"
        case .imported: "its key came from a key file: who sent it cannot be proven"
        case .backup: "its key came from your key backup: who sent it cannot be proven"
        }
    }
}
