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
    /// Asked for within `profileDeadline` seconds in all, and after the first failure no more:
    /// a server that does not answer slows a page by seconds, not by one wait per sender.
    func unknownSenders(of events: [JSONValue]) -> [JSONValue] {
        let senders = Set(events.compactMap { $0["sender"]?.string })
        let unknown = locked { senders.filter { timeline.members.names[$0] == nil } }.sorted().prefix(Self.profilesPerPage)
        let deadline = Date().addingTimeInterval(Self.profileDeadline)
        var members: [JSONValue] = []
        for user in unknown {
            let left = deadline.timeIntervalSinceNow
            guard left > 0.1, let profile = try? client.request("GET", ["profile", user], timeout: left) else { break }
            guard let name = profile["displayname"]?.string else { continue }
            members.append(["type": "m.room.member", "state_key": .string(user), "sender": .string(user),
                            "content": ["membership": "leave", "displayname": .string(name)]])
        }
        return members
    }

    /// Seconds an older page's profiles may take together.
    static let profileDeadline: TimeInterval = 5
}
