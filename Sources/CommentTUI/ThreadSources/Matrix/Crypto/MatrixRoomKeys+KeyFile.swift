import Foundation
import MatrixCrypto
import ThreadModel

/// The room keys in and out of key export files (`comment-tui keys export` / `keys import`,
/// `MegolmKeyExport`): every Megolm session the store holds, each from its first known index;
/// and a file's sessions added as imported keys (unsigned, `RoomKeyOrigin.imported`), a copy
/// we hold from as early an index kept.
extension MatrixRoomKeys {
    /// What an import did with a file's keys.
    struct KeyImport: Equatable {
        /// Sessions we did not have.
        var added = 0
        /// Sessions we had from a later index, now readable from an earlier one.
        var improved = 0
        /// Sessions we had already, from as early an index.
        var alreadyKept = 0
        /// Keys that claim a session we hold but do not lead to it, or name another sending device.
        var refused = 0
    }

    /// Every room key of the store, sorted by room and session, each exported at its first known index.
    func exportedRoomKeys() throws -> [ExportedRoomKey] {
        try lock.withLock {
            let known = tracker.devices.values.flatMap(\.values)
            return try device.store.values(in: Self.megolmSessions).compactMap { id, kept -> ExportedRoomKey? in
                guard let parts = Self.idParts(id), parts.count == 2 else { return nil }
                let claimed = kept.claimedSigningKey
                    ?? (kept.senderKey == device.identityKey ? device.fingerprint : nil)
                    ?? known.first(where: { $0.curve25519 == kept.senderKey })?.ed25519
                return ExportedRoomKey(roomID: parts[0], senderKey: kept.senderKey,
                                       sessionKey: try kept.session.export(at: kept.session.firstKnownIndex), claimedSigningKey: claimed)
            }.sorted { ($0.roomID, $0.sessionID) < ($1.roomID, $1.sessionID) }
        }
    }

    /// Adds `keys` (from a key file) to the store in one write, each as an imported key unless
    /// we hold the same session from as early an index. Rooms waiting for them re-decrypt.
    func importRoomKeys(_ keys: [ExportedRoomKey]) throws -> KeyImport {
        try lock.withLock {
            var outcome = KeyImport()
            var taken: [String: StoredRoomKey] = [:]
            for key in keys {
                let session = MegolmInboundSession(exportedKey: key.sessionKey)
                let id = CryptoStoreCollection<StoredRoomKey>.id(key.roomID, key.sessionID)
                guard let kept = try taken[id] ?? device.store.value(id, in: Self.megolmSessions) else {
                    taken[id] = StoredRoomKey(session: session, senderKey: key.senderKey, claimedSigningKey: key.claimedSigningKey,
                                              origin: .imported)
                    outcome.added += 1
                    continue
                }
                guard kept.senderKey == key.senderKey else {
                    outcome.refused += 1
                    continue
                }
                switch kept.session.compare(session) {
                case .better:
                    // The same session from an earlier index: a copy that was its sender's stays
                    // bound to that sender (the ratchets meet), so it keeps its standing.
                    let merged = kept.session.merging(session)
                    taken[id] = StoredRoomKey(session: merged, senderKey: kept.senderKey,
                                              claimedSigningKey: kept.claimedSigningKey ?? key.claimedSigningKey,
                                              origin: merged.isSigned ? kept.origin : .imported)
                    outcome.improved += 1
                case .equal, .worse: outcome.alreadyKept += 1
                case .unconnected: outcome.refused += 1
                }
            }
            guard !taken.isEmpty else { return outcome }
            try device.store.write { batch in
                for (id, key) in taken {
                    try batch.put(key, id: id, in: Self.megolmSessions)
                    batch.remove(id: id, from: Self.withheldKeys)
                }
            }
            arrivals += taken.count
            return outcome
        }
    }

    /// The parts of an id made by `CryptoStoreCollection.id` (each length-prefixed); nil when it
    /// is not laid out so.
    static func idParts(_ id: String) -> [String]? {
        var parts: [String] = []
        var rest = Substring(id).utf8[...]
        while !rest.isEmpty {
            guard let colon = rest.firstIndex(of: UInt8(ascii: ":")),
                  let length = Int(String(decoding: rest[..<colon], as: UTF8.self)), length >= 0 else { return nil }
            let start = rest.index(after: colon)
            guard rest.distance(from: start, to: rest.endIndex) >= length else { return nil }
            let end = rest.index(start, offsetBy: length)
            parts.append(String(decoding: rest[start..<end], as: UTF8.self))
            rest = rest[end...]
        }
        return parts
    }
}
