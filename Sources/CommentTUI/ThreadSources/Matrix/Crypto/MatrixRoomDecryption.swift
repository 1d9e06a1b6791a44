import Foundation
import ThreadModel

/// One room's view of its account's room keys, as its timeline uses them: each event opened
/// before it is read, and whether keys came since the waiting rows were last tried.
struct MatrixRoomDecryption {
    let roomID: String
    let keys: MatrixRoomKeys
    /// `keys.keyArrivals` when the waiting rows were last tried.
    private var triedAt = -1
    /// `keys.identityChangeCount` when the room last looked.
    private var identitiesSeenAt: Int
    /// How many members the room had when they were last handed to the keys to follow (`+SenderTrust`).
    var followedMemberCount = -1

    init(roomID: String, keys: MatrixRoomKeys) {
        self.roomID = roomID
        self.keys = keys
        identitiesSeenAt = keys.identityChangeCount
    }

    /// Whether a sender's identity changed (or was accepted) since the last call: the room's
    /// comments are drawn again, their headers saying so.
    mutating func identitiesChanged() -> Bool {
        let now = keys.identityChangeCount
        defer { identitiesSeenAt = now }
        return now != identitiesSeenAt
    }

    /// The event to read in place of `event` (decrypted, or itself), and why it is not readable
    /// when it is not (the row says so, in words).
    func open(_ event: JSONValue) -> (event: JSONValue, unreadable: MatrixEncryptedEvent.Unreadable?) {
        let opened: (event: JSONValue, unreadable: MatrixEncryptedEvent.Unreadable?)
        switch keys.read(event, roomID: roomID) {
        case .clear(let clear)?: opened = (clear, nil)
        case .undecryptable(let reason, let waits)?: opened = (event, .init(reason: reason, waitsForKey: waits))
        case nil: opened = (event, nil)
        }
        // Verification messages in the room go to the account's verifications (`+Room`).
        if opened.unreadable == nil { keys.verifications.noteRoomEvent(opened.event, roomID: roomID) }
        return opened
    }

    /// Whether keys came since the last call (the waiting rows are worth trying again).
    mutating func keysArrived() -> Bool {
        let now = keys.keyArrivals
        defer { triedAt = now }
        return now != triedAt
    }
}
