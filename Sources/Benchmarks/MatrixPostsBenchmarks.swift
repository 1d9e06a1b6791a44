import Foundation
import CommentTUI
import SynapseFixture

/// Posts in a room of 1,000 posts and 50,000 replies (issue 32's "Measure", `MatrixPostsRoom`):
/// what the homeserver takes to answer the two requests posts are read with, the newest page
/// of posts (`/threads`) and of a post's replies (`/relations`), each timed alone: the client's
/// figures stand beside them.
func matrixPostsBenchmarks() -> [BenchmarkRow] {
    do {
        let server = SynapseServer.kept(in: MatrixPostsRoom.directory)
        try server.start()
        defer { server.stop() }
        let room = try MatrixPostsRoom.filled(on: server)
        Thread.sleep(forTimeInterval: 5)
        let reader = MatrixTestClient(baseURL: server.baseURL, accessToken: room.readerToken, userID: room.reader)
        let escapedRoom = MatrixTestClient.escape(room.room)
        func timed(_ path: String, _ query: [String: String]) throws -> [Double] {
            try (0..<5).map { _ in
                let start = benchNow()
                try reader.call("GET", path, query: query)
                return Double(benchNow() - start) / 1e6
            }
        }
        let threads = try timed("/_matrix/client/v1/rooms/\(escapedRoom)/threads", ["limit": "30"])
        let relations = try timed("/_matrix/client/v1/rooms/\(escapedRoom)/relations/\(MatrixTestClient.escape(room.busiest))/m.thread",
                                  ["dir": "b", "limit": "30"])
        let area = "posts"
        func ms(_ values: [Double]) -> String { String(format: "%.1f ms median, %.1f ms worst", values.sorted()[values.count / 2], values.max() ?? 0) }
        return [
            BenchmarkRow(area: area, name: "fill \(room.posts) posts, \(room.replies) replies (setup, once; the room is kept)",
                         value: String(format: "%.0f s", room.fillSeconds)),
            BenchmarkRow(area: area, name: "the homeserver alone: newest 30 posts (/threads)", value: ms(threads)),
            BenchmarkRow(area: area, name: "the homeserver alone: newest 30 of \(MatrixPostsRoom.busiestReplies) replies (/relations)",
                         value: ms(relations)),
        ]
    } catch {
        return [BenchmarkRow(area: "posts", name: "could not run", value: "\(error)")]
    }
}
