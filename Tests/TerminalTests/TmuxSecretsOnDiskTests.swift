import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// What the client leaves on disk holds no secret it should not (issue 30): after `login`, a
/// session in a room (a comment sent, a draft left, the cache and read marker kept) and
/// `logout`, every file under the person's home is read for the password and the access token.
final class TmuxSecretsOnDiskTests: RunSynapseTestCase {
    func testThePasswordIsNowhereAndTheTokenOnlyInThePrivateAccountsFileUntilLogout() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let password = "pw-\(UUID().uuidString)"
        let ann = try server.register(localpart: "ann-\(suffix)", password: password, displayName: "Ann")
        let roomID = try server.client(for: ann).createRoom(name: "Secrets", preset: .publicChat, alias: "secrets-\(suffix)")
        try server.client(for: ann).sendText(roomID: roomID, body: "The post")
        let terminal = try TmuxSession(columns: 100, rows: 20)
        let home = terminal.home.path
        let accounts = home + "/config/comment-tui/accounts.json"

        // The password typed at the prompt, as a person would.
        try terminal.run("\(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann-\(suffix)")
        try terminal.waitFor("the password prompt") { $0.contains { $0.contains("Password for ann-\(suffix)") } }
        try terminal.literal(password)
        try terminal.keys("Enter")
        try terminal.waitFor("the login") { $0.contains { $0.contains("logged in as @ann-\(suffix):") } }
        let token = try accessToken(in: accounts)
        XCTAssertEqual(try secretHolders(under: home, [password, token]), [accounts: [token]], "after login")
        try assertPrivate(accounts)

        // A session: a comment sent, a pause, a draft left unsent, quit.
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:#secrets-\(suffix):\(server.serverName)'; echo EXIT=$?")
        try terminal.waitFor("the room live") { $0.last?.contains("live") == true }
        try terminal.literal("a comment that is sent")
        try terminal.keys("Enter")
        try terminal.waitFor("the comment confirmed") { screen in
            screen.contains { $0.contains("a comment that is sent") } && !screen.contains { $0.contains("sending…") }
        }
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal("a draft left behind")
        Thread.sleep(forTimeInterval: 2)
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
        let written = try allFiles(under: home)
        XCTAssertTrue(written.contains { $0.hasSuffix(".draft.json") }, "the draft was kept: \(written)")
        XCTAssertTrue(written.contains { $0.contains("/.cache/comment-tui/matrix/") }, "the room was cached: \(written)")
        XCTAssertEqual(try secretHolders(under: home, [password, token]), [accounts: [token]], "after a session")

        try terminal.run("clear; \(TmuxSession.clientPath) logout; echo LOGOUT=$?")
        try terminal.waitFor("the logout") { $0.contains { $0.contains("LOGOUT=0") } }
        XCTAssertEqual(try secretHolders(under: home, [password, token]), [:], "after logout")
    }

    /// The regular files under `root`, by path (the test's own tmux scratch files included).
    private func allFiles(under root: String) throws -> [String] {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: root))
        return enumerator.compactMap { $0 as? String }.map { root + "/" + $0 }.filter {
            var status = stat()
            return lstat($0, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Which files hold which of `secrets`, as bytes anywhere in the file.
    private func secretHolders(under root: String, _ secrets: [String]) throws -> [String: [String]] {
        var holders: [String: [String]] = [:]
        for path in try allFiles(under: root) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let held = secrets.filter { bytes.range(of: Data($0.utf8)) != nil }
            if !held.isEmpty { holders[path] = held }
        }
        return holders
    }

    private func accessToken(in accounts: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: accounts))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let first = try XCTUnwrap((object["accounts"] as? [[String: Any]])?.first)
        return try XCTUnwrap(first["access_token"] as? String)
    }

    /// The file is 0600 and its folder 0700, both the user's.
    private func assertPrivate(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (item, mode) in [(path, 0o600), ((path as NSString).deletingLastPathComponent, 0o700)] {
            var status = stat()
            XCTAssertEqual(lstat(item, &status), 0, file: file, line: line)
            XCTAssertEqual(Int(status.st_mode & 0o7777), mode, item, file: file, line: line)
            XCTAssertEqual(status.st_uid, geteuid(), item, file: file, line: line)
        }
    }
}
