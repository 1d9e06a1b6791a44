import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// The status bar of a room in a real terminal at 100 columns, the homeserver stopped: a server
/// of its own, since the test stops it.
final class TmuxMatrixStatusTests: OwnSynapseTestCase {
    /// Whether a status bar says `offline` or `connecting` as a whole word (`offline…` and
    /// `connect…` say neither).
    private static func saysState(_ bar: String?) -> Bool {
        bar?.split(separator: " ").contains { $0 == "offline" || $0 == "connecting" } == true
    }

    func testAnOfflineCopyOpenedWithTheServerDownSaysSoWhateverTheNameAndHandle() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        // A handle as long as a localpart gives, a name longer than the row.
        let localpart = "ann-whose-localpart-goes-on-and-on-\(suffix)"
        let ann = try server.register(localpart: localpart, password: "pw-ann", displayName: "Ann")
        let name = "The quarterly planning of the north-eastern regional office, with every team in it"
        let roomID = try server.client(for: ann).createRoom(name: name, preset: .publicChat, alias: "plan-\(suffix)")
        try server.client(for: ann).sendText(roomID: roomID, body: "The post")
        // More than a page: with the server gone, the older page fails at length in the bar.
        for n in 1...55 { try server.client(for: ann).sendText(roomID: roomID, body: "comment \(n)") }
        let room = "matrix:#plan-\(suffix):\(server.serverName)"

        let terminal = try TmuxSession(columns: 100, rows: 20)
        try terminal.run("printf '%s\\n' 'pw-ann' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user \(localpart) --password-stdin")
        try terminal.waitFor("ann to log in") { $0.contains { $0.contains("logged in as @\(localpart):") } }
        try terminal.run("clear; \(TmuxSession.clientPath) '\(room)'; echo EXIT=$?")
        try terminal.waitFor("the room to open live") { $0.last?.split(separator: " ").contains("live") == true }
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }

        server.stop()
        try terminal.run("clear; \(TmuxSession.clientPath) '\(room)'; echo EXIT=$?")
        let opened = try terminal.waitFor("the offline copy to say so") { Self.saysState($0.last) }
        XCTAssertTrue(Self.saysState(opened.last), "\(opened.last ?? "")")
        let failed = try terminal.waitFor("the older page to fail") { $0.last?.contains("could not load older comments") == true }
        XCTAssertTrue(Self.saysState(failed.last), "beside a long message too: \(failed.last ?? "")")
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=") } }
    }
}
