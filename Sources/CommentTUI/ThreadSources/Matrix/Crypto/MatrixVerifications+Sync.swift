import Foundation
import MatrixCrypto
import ThreadModel

/// In-room verification messages from the account's sync, for every room, not only those the
/// reader opened: a request in a direct chat that is not open here is offered all the same.
/// The rooms' timelines are looked through once the to-device part was taken (a room key that
/// came with the request decrypts it); each event is taken once however often it is read.
extension MatrixVerifications {
    /// Notes the verification messages among `answer`'s joined rooms' timeline events:
    /// clear ones as they are, encrypted ones decrypted when their key is here (one that is not
    /// is not asked for: the room does that when opened). Events older than a request may live
    /// are not decrypted, so a first sync's backlog costs nothing.
    func noteSyncedRooms(_ answer: JSONValue, keys: MatrixRoomKeys) {
        let oldest = nowMilliseconds - SasVerification.lifetimeMilliseconds
        // One batch: each user's keys read once for the whole sync.
        noteRoomEventsTogether {
            for (roomID, room) in answer["rooms"]?["join"]?.object ?? [:] {
                for event in room["timeline"]?["events"]?.array ?? [] {
                    guard let sent = event["origin_server_ts"]?.int, Int64(sent) >= oldest,
                          let type = event["type"]?.string else { continue }
                    if type == "m.room.encrypted" {
                        guard keys.holdsKey(of: event, roomID: roomID), case .clear(let clear)? = keys.read(event, roomID: roomID) else { continue }
                        noteRoomEvent(clear, roomID: roomID)
                    } else {
                        noteRoomEvent(event, roomID: roomID)
                    }
                }
            }
        }
    }
}

extension MatrixRoomKeys {
    /// Whether the Megolm session `event` (encrypted) names is here, without asking for it when not.
    func holdsKey(of event: JSONValue, roomID: String) -> Bool {
        guard let sessionID = event["content"]?["session_id"]?.string else { return false }
        let id = CryptoStoreCollection<StoredRoomKey>.id(roomID, sessionID)
        return lock.withLock { (try? device.store.value(id, in: Self.megolmSessions)) != nil }
    }
}
