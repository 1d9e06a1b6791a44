import Foundation
import SynapseFixture

/// A room served by a scripted homeserver to a client in a real terminal, for rooms no test
/// server could hold: its events as JSON, a sync answer, and a server that answers the client's
/// opening requests, leaving the syncs to the test.
struct ScriptedRoom {
    /// The reader, on the scripted server.
    static let me = "@ann:127.0.0.1"
    /// The room's id.
    let id: String

    /// One event of the room.
    func event(_ type: String, _ eventID: String, sender: String = me, stateKey: String? = nil, content: String) -> String {
        let key = stateKey.map { ",\"state_key\":\"\($0)\"" } ?? ""
        return "{\"type\":\"\(type)\",\"event_id\":\"\(eventID)\",\"sender\":\"\(sender)\",\"origin_server_ts\":1700000000000\(key),\"content\":\(content)}"
    }

    /// A user joining under a display name.
    func join(_ user: String, name: String, eventID: String) -> String {
        event("m.room.member", eventID, sender: user, stateKey: user, content: "{\"membership\":\"join\",\"displayname\":\"\(name)\"}")
    }

    /// The room's first events: its creation, the reader's join, its name and a post.
    func opening(name: String) -> [String] {
        [event("m.room.create", "$create", stateKey: "", content: "{\"creator\":\"\(Self.me)\",\"room_version\":\"10\"}"),
         join(Self.me, name: "Ann", eventID: "$ann"),
         event("m.room.name", "$name", stateKey: "", content: "{\"name\":\"\(name)\"}"),
         event("m.room.message", "$post", content: "{\"msgtype\":\"m.text\",\"body\":\"The post\"}")]
    }

    /// A sync answer carrying the room's new events and state.
    func sync(_ next: String, timeline: [String], state: [String] = []) -> ScriptedHomeserver.Answer {
        .json("{\"next_batch\":\"\(next)\",\"rooms\":{\"join\":{\"\(id)\":{\"timeline\":{\"events\":[\(timeline.joined(separator: ","))],\"limited\":false,\"prev_batch\":\"p\"},\"state\":{\"events\":[\(state.joined(separator: ","))]}}}}}")
    }

    /// A server for the room: `syncs` answers `/sync`; `joinedMembers` (JSON) answers
    /// `/joined_members` when given; everything else the client asks at the opening is answered.
    func server(joinedMembers: String? = nil, syncs: @escaping @Sendable (ScriptedHomeserver.Request) -> ScriptedHomeserver.Answer) throws -> ScriptedHomeserver {
        let id = id, opening = opening(name: "")
        return try ScriptedHomeserver { request in
            switch request.path {
            case "/_matrix/client/versions": return .versions
            case "/_matrix/client/v3/joined_rooms": return .json("{\"joined_rooms\":[\"\(id)\"]}")
            case "/_matrix/client/v3/sync": return syncs(request)
            case _ where joinedMembers != nil && request.path.hasSuffix("/joined_members"): return .json(joinedMembers!)
            case _ where request.path.hasSuffix("/messages"):
                return .json("{\"chunk\":[\(opening[0]),\(opening[3])],\"start\":\"t0\"}")
            case _ where request.path.hasSuffix("/state/m.room.create/"):
                return .json("{\"creator\":\"\(ScriptedRoom.me)\"}")
            default:
                return .json("{\"errcode\":\"M_NOT_FOUND\",\"error\":\"no\"}", status: 404)
            }
        }
    }
}
