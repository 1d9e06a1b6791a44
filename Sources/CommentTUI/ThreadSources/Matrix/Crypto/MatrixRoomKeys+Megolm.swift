import Foundation
import MatrixCrypto
import ThreadModel

/// Decrypting a room's `m.room.encrypted` events (`m.megolm.v1.aes-sha2`) with the room keys
/// kept: the event comes back as the clear event it carried (its id, sender, time and the
/// relation in the clear kept), or as the reason it cannot be read yet, in words.
extension MatrixRoomKeys {
    /// What became of an encrypted room event.
    enum RoomEventReading: Equatable {
        /// The event as sent, decrypted: read as any clear event is.
        case clear(JSONValue)
        /// Not readable (yet): why, in words, and whether the key may still come.
        case undecryptable(reason: String, waitsForKey: Bool)
    }

    /// The words for a message whose key has not come and was not withheld.
    static let keyNotArrived = "the sender's key has not arrived"

    /// `event` of `roomID` decrypted; nil when it is no Megolm event (read as it is).
    func read(_ event: JSONValue, roomID: String) -> RoomEventReading? {
        guard event["type"]?.string == "m.room.encrypted", let content = event["content"],
              content["algorithm"]?.string == "m.megolm.v1.aes-sha2" else { return nil }
        guard let sessionID = content["session_id"]?.string, let ciphertext = content["ciphertext"]?.string,
              let eventID = event["event_id"]?.string else {
            return .undecryptable(reason: "the message is not laid out as an encrypted message", waitsForKey: false)
        }
        lock.lock()
        defer { lock.unlock() }
        let id = CryptoStoreCollection<StoredRoomKey>.id(roomID, sessionID)
        guard var kept = try? device.store.value(id, in: Self.megolmSessions) else {
            want(roomID: roomID, sessionID: sessionID, senderKey: content["sender_key"]?.string)
            let withheld = try? device.store.value(id, in: Self.withheldKeys)
            return .undecryptable(reason: withheld?.words ?? Self.keyNotArrived, waitsForKey: true)
        }
        if let named = content["sender_key"]?.string, named != kept.senderKey {
            return .undecryptable(reason: "it names another sending device than the one that shared its key", waitsForKey: false)
        }
        let decryption: MegolmInboundSession.Decryption
        do {
            decryption = try kept.session.decrypt(base64: ciphertext)
        } catch let failure as MegolmFailure {
            // An earlier copy of the key may still come for an index before ours: the backup is asked for it.
            if failure.reason == .unknownMessageIndex {
                wantedEarlier.insert(WantedKey(roomID: roomID, sessionID: sessionID, senderKey: kept.senderKey))
            }
            return .undecryptable(reason: failure.description, waitsForKey: failure.reason == .unknownMessageIndex)
        } catch {
            return .undecryptable(reason: "\(error)", waitsForKey: false)
        }
        if case .replay(let original) = replayGuard.check(sessionID: sessionID, messageIndex: decryption.messageIndex, eventID: eventID) {
            return .undecryptable(reason: "refused: it replays the key index of another message (\(original))", waitsForKey: false)
        }
        guard let inner = try? JSONValue(parsing: .init(decryption.plaintext)), let type = inner["type"]?.string,
              var clearContent = inner["content"]?.object, var clear = event.object else {
            return .undecryptable(reason: "what it decrypted to is not an event", waitsForKey: false)
        }
        guard inner["room_id"]?.string == roomID else {
            return .undecryptable(reason: "refused: it was encrypted for another room", waitsForKey: false)
        }
        // The relation stays in the clear (the server aggregates by it): it counts, as the spec says.
        if let relation = content["m.relates_to"], clearContent["m.relates_to"] == nil { clearContent["m.relates_to"] = relation }
        clear["type"] = .string(type)
        clear["content"] = .object(clearContent)
        if let origin = kept.origin { backup.note(origin, of: eventID) }
        return .clear(.object(clear))
    }

    /// How many room keys or withheld notices were taken so far: a room re-decrypts its
    /// waiting rows when this moved since it last looked.
    var keyArrivals: Int { lock.withLock { arrivals } }
}
