import Foundation
import SynapseFixture
import XCTest

/// Two federating Synapses on 127.0.0.1: a user of one joins the other's room by alias, over
/// TLS federation, and each sees the other's messages, also after one server restarts.
final class SynapseFederationTests: XCTestCase {
    func testUsersOfTwoServersShareARoomAcrossARestart() throws {
        let first = try SynapseServer.federating()
        let second = try SynapseServer.federating()
        defer { first.stop(); second.stop() }
        XCTAssertEqual(first.serverName, "127.0.0.1:\(try XCTUnwrap(first.federationPort))")
        XCTAssertNotEqual(first.serverName, second.serverName)
        let started = Date()
        try SynapseServer.startTogether([first, second])
        print("federating pair started in \(Self.seconds(since: started))")

        let ann = try first.register(localpart: "ann", displayName: "Ann")
        let bob = try second.register(localpart: "bob", displayName: "Bob")
        XCTAssertEqual(ann.userID, "@ann:\(first.serverName)")
        let annClient = first.client(for: ann)
        let bobClient = second.client(for: bob)
        let roomID = try annClient.createRoom(name: "Shared", preset: .publicChat, alias: "shared")
        let joining = Date()
        XCTAssertEqual(try bobClient.join("#shared:\(first.serverName)"), roomID)
        print("joined over federation in \(Self.seconds(since: joining))")

        let annSent = Date()
        try annClient.sendText(roomID: roomID, body: "hello from ann")
        try waitFor("hello from ann", in: roomID, seenBy: bobClient)
        print("first to second in \(Self.seconds(since: annSent))")
        let bobSent = Date()
        try bobClient.sendText(roomID: roomID, body: "hello from bob")
        try waitFor("hello from bob", in: roomID, seenBy: annClient)
        print("second to first in \(Self.seconds(since: bobSent))")
        let members = try annClient.call("GET", "/_matrix/client/v3/rooms/\(roomID)/joined_members")["joined"] as? [String: Any]
        XCTAssertEqual(Set(members?.keys.map { $0 } ?? []), [ann.userID, bob.userID])

        let port = second.port
        let restarting = Date()
        second.stop()
        // One of the pair started on a Dispatch worker thread, which blocks SIGTERM; each must
        // still heed it, not wait for the SIGKILL 10 s later (checked for `first` at the end).
        XCTAssertLessThan(Date().timeIntervalSince(restarting), 8, "stop() fell back to SIGKILL")
        try second.start()
        print("second restarted in \(Self.seconds(since: restarting))")
        XCTAssertEqual(second.port, port)
        let afterRestart = Date()
        try annClient.sendText(roomID: roomID, body: "after the restart")
        try waitFor("after the restart", in: roomID, seenBy: bobClient)
        print("first to restarted second in \(Self.seconds(since: afterRestart))")
        let stopping = Date()
        first.stop()
        XCTAssertLessThan(Date().timeIntervalSince(stopping), 8, "stop() fell back to SIGKILL")
    }

    /// Polls `/messages` every 50 ms, at most `timeout` seconds, until `body` is there.
    private func waitFor(_ body: String, in roomID: String, seenBy client: MatrixTestClient, timeout: TimeInterval = 20,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var bodies: [String] = []
        while Date() < deadline {
            bodies = try client.messageBodies(roomID: roomID)
            if bodies.contains(body) { return }
            usleep(50_000)
        }
        XCTFail("\(body) did not arrive within \(Int(timeout)) s; \(client.userID ?? "?") sees \(bodies)", file: file, line: line)
    }

    private static func seconds(since start: Date) -> String {
        String(format: "%.2f s", Date().timeIntervalSince(start))
    }
}
