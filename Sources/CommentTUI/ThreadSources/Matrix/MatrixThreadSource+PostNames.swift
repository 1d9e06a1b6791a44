import Foundation
import ThreadModel

/// Names for an older page of a post: `/relations` pages carry no member state (a room's
/// `/messages` pages do, lazily loaded), so a reply by someone who has left the room since the
/// post opened (its opening read the joined members) would show a bare user id. Their profiles
/// are asked for, a few a page, as member events the timeline applies before the page.
extension MatrixThreadSource {
    /// The most profiles asked for per older page: a page of many unknown senders stays fast.
    static let profilesPerPage = 10

    /// Member events (as left members: they name, never join) for the senders of `events` the
    /// timeline has no name for, from their profiles; none when a profile cannot be read.
    func unknownSenders(of events: [JSONValue]) -> [JSONValue] {
        let senders = Set(events.compactMap { $0["sender"]?.string })
        let unknown = locked { senders.filter { timeline.members.names[$0] == nil } }.sorted().prefix(Self.profilesPerPage)
        return unknown.compactMap { user -> JSONValue? in
            guard let name = (try? client.request("GET", ["profile", user], timeout: 5))?["displayname"]?.string else { return nil }
            return ["type": "m.room.member", "state_key": .string(user), "sender": .string(user),
                    "content": ["membership": "leave", "displayname": .string(name)]]
        }
    }
}
