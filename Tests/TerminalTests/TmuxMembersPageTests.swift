import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// F4 in a real terminal against a real Synapse: in an encrypted room Bo's matrix-nio client
/// made, Ann's client lists the members, each with their trust and their devices' (none of them
/// cross-signed here), and Esc closes the page.
final class TmuxMembersPageTests: RunSynapseTestCase {
    func testF4ListsTheMembersDevicesWithTheirTrust() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-members-\(suffix)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nio = MatrixNioPeer(homeserver: server.baseURL, userID: bo.userID, password: "pw-bo", storeFolder: folder.path)
        let room = try XCTUnwrap(nio.run([.createEncryptedRoom(invite: [ann.userID]), .sync]).first?["room_id"] as? String)

        let terminal = try TmuxSession(columns: 100, rows: 20)
        try terminal.run("printf '%s\\n' 'pw-ann' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann-\(suffix) --password-stdin")
        try terminal.waitFor("Ann to log in") { $0.contains { $0.contains("logged in as @ann-\(suffix):") } }
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(room)' --join-encrypted; echo EXIT=$?")
        try terminal.waitFor("the room open and live") { $0.last?.contains("live") == true }

        // The page shows what was read when it opened: until the members' devices are read
        // (the sync after the opening), it says so, and is opened again a moment later.
        var page: [String] = []
        for _ in 0 ..< 10 {
            Thread.sleep(forTimeInterval: 1)
            try terminal.keys("F4")
            page = try terminal.waitFor("the members page") { $0.contains { $0.contains("Members · devices and trust") } }
            if !page.contains(where: { $0.contains("devices not read yet") }) { break }
            Thread.sleep(forTimeInterval: 1)
            try terminal.keys("Escape")
            try terminal.waitFor("the page closed") { $0.last?.contains("live") == true }
        }
        let shown = page.joined(separator: "\n")
        XCTAssertTrue(page.contains { $0.contains("Ann (you)") && $0.contains("? not verified") }, shown)
        XCTAssertTrue(page.contains { $0.contains("Bo") && $0.contains("? not verified") }, shown)
        XCTAssertEqual(page.filter { $0.contains("? not signed by its owner") }.count, 2, "Ann's device and Bo's: \(shown)")

        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Escape")
        try terminal.waitFor("the page closed") { $0.last?.contains("live") == true && !$0.contains { $0.contains("Members · devices") } }
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }
}
