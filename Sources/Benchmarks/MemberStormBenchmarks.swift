import Foundation
import CommentTUI
import ThreadModel

/// Member storms (issue 36): member events applied as a sync applies them, then taken by the
/// app, in a big room. Each row: the model's time (under the source's lock) + the app's.
func memberStormBenchmarks() -> [BenchmarkRow] {
    var rows: [BenchmarkRow] = []
    // 50 member events (one sync) into rooms of n and 2n members: flat when each costs O(change).
    var bigRoom: [Double] = []
    for size in [25_000, 50_000] {
        let members = Dictionary(uniqueKeysWithValues: (0..<size).map { ("@member\($0):home.org", Optional("Member \($0)")) })
        let joins = (0..<50).map { (id: "@newcomer\($0):other.org", name: Optional("Newcomer \($0)")) }
        let (model, app) = stormSeconds(members: members, syncs: [joins])
        bigRoom.append(model + app)
        rows.append(BenchmarkRow(area: "members", name: "50 member events into a \(size)-member room (one sync)",
                                 value: String(format: "%.3f s (model %.3f s, app %.3f s)", model + app, model, app)))
    }
    rows.append(BenchmarkRow(area: "members", name: "  ratio 50,000 / 25,000 members", value: String(format: "%.2fx", bigRoom[1] / max(bigRoom[0], 1e-9))))

    // Joins sharing a 35-character prefix, one sync each as they come: n and 2n.
    let prefix = "a-prefix-thirty-five-characters-lon"
    var prefixed: [Double] = []
    for count in [250, 500] {
        let syncs = (0..<count).map { [(id: "@\(prefix)\($0):home.org", name: Optional("Joiner \($0)"))] }
        let (model, app) = stormSeconds(members: ["@reader:home.org": "Reader"], syncs: syncs)
        prefixed.append(model + app)
        rows.append(BenchmarkRow(area: "members", name: "\(count) joins sharing a 35-character prefix (a sync each)",
                                 value: String(format: "%.3f s (model %.3f s, app %.3f s)", model + app, model, app)))
    }
    rows.append(BenchmarkRow(area: "members", name: "  ratio 500 / 250 joins", value: String(format: "%.2fx", prefixed[1] / max(prefixed[0], 1e-9))))
    return rows
}

/// Seconds the syncs' member events take in the model (the timeline) and in the app (its receive).
private func stormSeconds(members: [String: String?], syncs: [[(id: String, name: String?)]]) -> (model: Double, app: Double) {
    var storm = MatrixMemberStorm(me: "@reader:home.org", members: members)
    let users = storm.users
    let reader = users.first { $0.id == "@reader:home.org" } ?? User(id: "@reader:home.org", handle: "reader", name: "Reader")
    let thread = CommentThread(id: "!room:home.org", title: "Storm", author: reader.id, created: Date(timeIntervalSince1970: 0),
                               body: "", users: users + [reader])
    let app = CommentApp(source: InMemoryThreadSource(thread: thread, label: "storm"), me: reader, columns: 100, rows: 30)
    _ = app.render()
    var model: UInt64 = 0, taken: UInt64 = 0
    for sync in syncs {
        let start = benchNow()
        let updates = storm.sync(joins: sync)
        let applied = benchNow()
        app.receive(updates)
        _ = app.render()
        model += applied - start
        taken += benchNow() - applied
    }
    return (Double(model) / 1e9, Double(taken) / 1e9)
}
