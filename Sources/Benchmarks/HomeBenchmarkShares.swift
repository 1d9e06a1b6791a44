import Foundation
import CommentTUI
import ThreadModel

/// Where the time of home's cold start and of an opening goes: the homeserver's share (the
/// requests they make, timed alone) and the client's (the rooms taking in an answer).
///
/// Each request differs from every other (a room left out that cannot exist), so Synapse's
/// cache of recent sync answers never answers it.
struct HomeBenchmarkShares {
    let client: MatrixClient
    let account: String

    func rows(openedRoom: String) throws -> [BenchmarkRow] {
        var requests: [Double] = []
        var taking: [Double] = []
        var answerRooms = 0
        for _ in 0..<3 {
            let start = benchNow()
            let answer = try client.sync(since: nil, filter: Self.unique(MatrixAccountFilter.lean), wait: 0)
            let answered = benchNow()
            var rooms = MatrixAccountRooms(account: account)
            rooms.apply(sync: answer, at: Date())
            answerRooms = rooms.summaries.count
            taking.append(Double(benchNow() - answered) / 1e6)
            requests.append(Double(answered - start) / 1e6)
        }
        var openings: [Double] = []
        for _ in 0..<3 {
            let filter: JSONValue = [
                "presence": ["not_types": ["*"]],
                "account_data": ["not_types": ["*"]],
                "room": [
                    "rooms": [.string(openedRoom)],
                    "timeline": ["limit": 30],
                    "state": ["lazy_load_members": true],
                    "ephemeral": ["types": ["m.typing"]],
                    "account_data": ["types": ["m.fully_read"]],
                ],
            ]
            let start = benchNow()
            _ = try client.sync(since: nil, filter: Self.unique(filter), wait: 0)
            openings.append(Double(benchNow() - start) / 1e6)
        }
        func ms(_ values: [Double]) -> String { String(format: "%.0f ms", values.sorted()[values.count / 2]) }
        return [
            BenchmarkRow(area: "home", name: "of a cold start: the initial sync asked alone (server, transfer, parse) · \(answerRooms) rooms taken in (median of 3)",
                         value: "\(ms(requests)) · \(ms(taking))"),
            BenchmarkRow(area: "home", name: "of an opening before the account's first answer (no position yet): the initial sync filtered to the room it makes, asked alone (median of 3)",
                         value: ms(openings)),
        ]
    }

    /// `filter` leaving out a room that cannot exist, new each call.
    private static func unique(_ filter: JSONValue) -> JSONValue {
        guard case .object(var object) = filter, case .object(var room)? = object["room"] else { return filter }
        room["not_rooms"] = [.string("!bench-\(UUID().uuidString):unique.invalid")]
        object["room"] = .object(room)
        return .object(object)
    }
}
