import Foundation
import ThreadModel

/// The bell for a room: which arriving messages call for the reader beyond the pills the app
/// sees in a comment (`MatrixReaderMention`).
extension MatrixThreadSource {
    /// Notes which of a sync's events call for the reader, for the app to ask as they arrive.
    /// Runs on the sync thread: power levels, if an `@room` needs them and none are known, are
    /// asked for here, outside the lock.
    func noteCalls(events: [JSONValue], state: [JSONValue]) {
        let (rule, name) = locked { () -> (MatrixReaderMention, String?) in
            readerMention.applyState(state + events)
            return (readerMention, timeline.members.names[me] ?? nil)
        }
        var fetched: MatrixReaderMention.Power??
        let calling = events.filter { event in
            rule.callsForReader(event, name: name) {
                if fetched == nil { fetched = .some(roomPower()) }
                return fetched ?? nil
            }
        }.compactMap { $0["event_id"]?.string }
        locked {
            if case .some(.some(let power)) = fetched, readerMention.power == nil { readerMention.power = power }
            callingEvents.formUnion(calling)
        }
    }

    /// The room's power levels and creators, asked of the server (nil when it does not answer).
    private func roomPower() -> MatrixReaderMention.Power? {
        guard let create = try? client.request("GET", ["rooms", roomID, "state", "m.room.create", ""], query: ["format": "event"]),
              let levels = try? client.stateContent(room: roomID, type: "m.room.power_levels") else { return nil }
        return MatrixReaderMention.Power(levels: levels, creators: MatrixReaderMention.Power.creators(ofCreate: create))
    }

    public func callsForReader(_ comment: Comment) -> Bool {
        locked { callingEvents.remove(comment.id) != nil }
    }
}
