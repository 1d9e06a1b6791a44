import Foundation
import ThreadModel

/// Home's view of encrypted rooms: a sync answer whose joined rooms' timelines are decrypted,
/// so each row's preview is the message's text (never its ciphertext, never a lock where the
/// key is at hand); and the rooms as home's cache keeps them, with no decrypted text.
extension MatrixRoomKeys {
    /// `answer` with each joined room's Megolm events replaced by what they decrypt to (the
    /// rest, and what does not decrypt, as they were).
    func decryptingTimelines(of answer: JSONValue) -> JSONValue {
        guard var top = answer.object, var rooms = top["rooms"]?.object, var joined = rooms["join"]?.object else { return answer }
        var changed = false
        for (roomID, room) in joined {
            guard let events = room["timeline"]?["events"]?.array,
                  events.contains(where: { $0["type"]?.string == "m.room.encrypted" }),
                  var roomObject = room.object, var timeline = roomObject["timeline"]?.object else { continue }
            timeline["events"] = .array(events.map { event in
                if case .clear(let clear)? = read(event, roomID: roomID) { return clear }
                return event
            })
            roomObject["timeline"] = .object(timeline)
            joined[roomID] = .object(roomObject)
            changed = true
        }
        guard changed else { return answer }
        rooms["join"] = .object(joined)
        top["rooms"] = .object(rooms)
        return .object(top)
    }
}

extension MatrixAccountRooms {
    /// The rooms without the decrypted previews of encrypted rooms: home's cache is not
    /// encrypted, so their rows come back with the lock until the sync decrypts them again.
    var withoutDecryptedText: MatrixAccountRooms {
        var copy = self
        copy.maskEncryptedPreviews()
        return copy
    }
}
