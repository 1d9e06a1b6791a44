import Foundation
import XCTest
import SynapseFixture

/// Ann and Bo on a test's own Synapse under names no other test has, and Bo's client (another
/// client, as Element would be): who a tmux test of a room needs. Ann is the one the real
/// client runs as, logged in by `terminalWithAnnLoggedIn`.
struct TmuxRoomPeople {
    let suffix: String
    let ann: MatrixTestAccount
    let bo: MatrixTestAccount
    let boClient: MatrixTestClient
    private let server: SynapseServer

    init(on server: SynapseServer) throws {
        self.server = server
        suffix = UUID().uuidString.prefix(6).lowercased()
        ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
        boClient = server.client(for: bo)
    }

    /// Bo's public room "Trip" with his welcome (Ann joining after it, with `annJoins`), then
    /// his post `root` with his reply `reply` in it (an `m.thread` relation, as Element sends
    /// one); returns the room's id and the post's root.
    func tripRoomWithAPost(_ root: String, reply: String, annJoins: Bool) throws -> (roomID: String, root: String) {
        let roomID = try boClient.createRoom(name: "Trip", preset: .publicChat)
        try boClient.sendText(roomID: roomID, body: "Welcome to the trip room")
        if annJoins { _ = try server.client(for: ann).join(roomID) }
        let rootID = try boClient.sendText(roomID: roomID, body: root)
        try boRepliesInPost(roomID, root: rootID, reply)
        return (roomID, rootID)
    }

    /// Bo's reply in the post under `root` (an `m.thread` relation, as Element sends it).
    @discardableResult
    func boRepliesInPost(_ roomID: String, root: String, _ body: String) throws -> String {
        try boClient.send(roomID: roomID, content: [
            "msgtype": "m.text", "body": body,
            "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": root]],
        ])
    }

    /// A terminal of this size in which Ann has logged in with `comment-tui login` (her password
    /// piped in).
    func terminalWithAnnLoggedIn(columns: Int = 80, rows: Int = 20) throws -> TmuxSession {
        let terminal = try TmuxSession(columns: columns, rows: rows)
        try terminal.run("printf '%s\\n' 'pw-ann' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann-\(suffix) --password-stdin")
        try terminal.waitFor("ann to log in") { $0.contains { $0.contains("logged in as @ann-\(suffix):") } }
        return terminal
    }
}

extension TmuxSession {
    /// Starts `team.jsonl` in the session's home (titled Plans, by Ann) with `new`, opens it in
    /// the client as Ann (the shell echoes `EXIT=<status>` after it), posts `comment` and
    /// selects it with Alt-Up, at a person's pace; returns the file's path.
    func threadFileWithOurCommentSelected(_ comment: String) throws -> String {
        let file = home.appendingPathComponent("team.jsonl").path
        let client = TmuxSession.clientPath
        try run("\(client) new \(file) --title Plans --as ann --name Ann --body first; echo NEW=$?")
        try waitFor("the thread") { $0.contains { $0.contains("NEW=0") } }
        try run("clear; \(client) \(file) --as ann; echo EXIT=$?")
        try waitFor("the client") { $0.contains { $0.contains("@ann · team.jsonl") } }
        try literal(comment)
        try keys("Enter")
        try waitFor("our comment, posted") { $0.contains("   \(comment)") && $0.last!.contains("posted") }
        Thread.sleep(forTimeInterval: 1)
        try keys("M-Up")
        Thread.sleep(forTimeInterval: 1)
        return file
    }

    /// Alt-K on the selected comment, then `choice` in the picker, at a person's pace.
    func react(choosing choice: String) throws {
        try keys("M-k")
        try waitFor("the picker") { $0.contains { $0.hasPrefix("react: 1") } }
        Thread.sleep(forTimeInterval: 1)
        try literal(choice)
    }
}
