import Foundation
import ThreadModel

/// Opening a joined room where its account's sync has a position, with no sync of its own: on
/// Synapse an initial sync, even of one room, walks every joined room (over a second at 500).
///
/// The newest page is read back from the position, so the account's answers after it (or the
/// room's own catch-up, when the sync moved on meanwhile) bring exactly what came after: no gap,
/// nothing twice. The room's state is read whole, as it is now, which may be newer than the page.
extension MatrixRoomOpening {
    /// The start read at the account's sync's `position` (asked for once the room is known to
    /// be joined: it may wait for the sync's first answer); nil when there is none, when the
    /// room is to be joined first (a page before the position would not hold the join: it
    /// opens with a sync, as alone) or its state is too big to read whole (tens of thousands
    /// of members, which a sync lazy-loads).
    static func start(client: MatrixClient, address: MatrixRoomAddress, me: String, pageSize: Int,
                      at position: () -> String?) throws -> Start? {
        let roomID = address.isAlias ? try client.resolve(alias: address.identifier) : address.identifier
        guard try client.joinedRooms().contains(roomID), let position = position() else { return nil }
        let state: [JSONValue]
        do {
            state = try client.state(room: roomID)
        } catch let error as MatrixError where error.kind == .malformed {
            return nil
        }
        let page = try client.messages(room: roomID, from: position, backwards: true, limit: pageSize,
                                       filter: ["lazy_load_members": true])
        let timelineEvents = Array(page.events.reversed())
        // The state now is newer than the page: it goes in last, so a rename on the page never
        // hides a later one.
        var current: [String: JSONValue] = [:]
        for event in page.state + timelineEvents + state { note(event, in: &current) }
        var joined: [String: String?] = [:]
        for event in state where event["type"]?.string == "m.room.member" && event["content"]?["membership"]?.string == "join" {
            if let id = event["state_key"]?.string { joined[id] = event["content"]?["displayname"]?.string }
        }
        // Nothing older once the page holds the room's start.
        let reachedStart = page.events.contains { $0["type"]?.string == "m.room.create" && $0["state_key"]?.string == "" }
        return Start(roomID: roomID, isEncrypted: current["m.room.encryption\u{0}"] != nil, stateEvents: page.state,
                     timelineEvents: timelineEvents, current: current,
                     fullyRead: try? client.fullyRead(room: roomID, userID: me),
                     olderToken: reachedStart || page.events.isEmpty ? nil : page.end, nextBatch: position, joined: joined)
    }
}
