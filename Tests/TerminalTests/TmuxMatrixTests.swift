import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// Two people in one room, each in a real terminal: the client as a newcomer runs it from the
/// manual (log in, open the room), against a real Synapse on 127.0.0.1.
final class TmuxMatrixTests: OwnSynapseTestCase {
    /// Logs a user in from the shell of `tmux` and opens `room`.
    private func open(_ room: String, as localpart: String, password: String, in tmux: TmuxSession) throws {
        try tmux.run("printf '%s\\n' '\(password)' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user \(localpart) --password-stdin")
        try tmux.waitFor("\(localpart) to log in") { $0.contains { $0.contains("logged in as @\(localpart):") } }
        try tmux.run("clear; \(TmuxSession.clientPath) '\(room)'; echo EXIT=$?")
        try tmux.waitFor("the room to open live") { $0.last?.contains("live") == true }
    }

    func testTwoPeopleOnTwoTerminalsSeeEachOthersComments() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
        let roomID = try server.client(for: ann).createRoom(name: "Two terminals", preset: .publicChat, alias: "two-\(suffix)")
        try server.client(for: ann).sendText(roomID: roomID, body: "The post of the room")
        // Bo joins by opening the public room's alias; Ann by the matrix.to link.
        let room = "matrix:#two-\(suffix):\(server.serverName)"

        let annTerminal = try TmuxSession(columns: 90, rows: 20)
        let boTerminal = try TmuxSession(columns: 90, rows: 20)
        try open("https://matrix.to/#/\(roomID)", as: "ann-\(suffix)", password: "pw-ann", in: annTerminal)
        try open(room, as: "bo-\(suffix)", password: "pw-bo", in: boTerminal)
        XCTAssertTrue(try annTerminal.screen()[0].contains("Two terminals"))

        try annTerminal.literal("hello from **ann**")
        try annTerminal.keys("Enter")
        try boTerminal.waitFor("ann's comment on bo's screen") { $0.contains { $0.contains("hello from ann") } }
        try annTerminal.waitFor("ann's comment confirmed") { screen in
            screen.contains { $0.contains("hello from ann") } && !screen.contains { $0.contains("sending…") }
        }

        try boTerminal.literal("hi @ann-\(suffix)")
        try boTerminal.keys("Tab")
        try boTerminal.literal(" and welcome")
        try boTerminal.keys("Enter")
        let seen = try annTerminal.waitFor("bo's comment on ann's screen") { $0.contains { $0.contains("and welcome") } }
        XCTAssertTrue(seen.contains { $0.contains("Bo @bo-\(suffix)") }, "\(seen)")
        XCTAssertFalse(seen.joined().contains(ann.accessToken) || seen.joined().contains(bo.accessToken), "no token on screen")

        try annTerminal.keys("C-c")
        let exit = try annTerminal.waitFor("ann's client to exit") { $0.contains { $0.contains("EXIT=0") } }
        XCTAssertFalse(exit.contains { $0.contains("could not") }, "a clean exit says nothing: \(exit)")
        try boTerminal.keys("C-c")
        try boTerminal.waitFor("bo's client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }

    func testQuittingWithACommentUnsentSaysHowManyAndWhereTheyWait() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
        let roomID = try server.client(for: bo).createRoom(name: "Train", preset: .publicChat, alias: "train-\(suffix)")
        try server.client(for: bo).sendText(roomID: roomID, body: "The post")
        _ = try server.client(for: ann).join(roomID)
        // Only Bo may post: Ann's first comment is refused for good (403).
        try server.client(for: bo).sendState(roomID: roomID, type: "m.room.power_levels", content: [
            "users_default": 0, "events_default": 0, "state_default": 50,
            "ban": 50, "kick": 50, "redact": 50, "invite": 0, "events": ["m.room.message": 50],
        ])
        let terminal = try TmuxSession(columns: 90, rows: 20)
        try open("matrix:#train-\(suffix):\(server.serverName)", as: "ann-\(suffix)", password: "pw-ann", in: terminal)
        try terminal.literal("refused by the room")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Enter")
        try terminal.waitFor("the comment refused") { $0.contains { $0.contains("not sent: forbidden") } }
        Thread.sleep(forTimeInterval: 1)

        server.stop()
        try terminal.waitFor("the status bar to say offline") { $0.last?.contains("offline") == true }
        try terminal.literal("written in a tunnel")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Enter")
        try terminal.waitFor("the comment pending") { $0.contains { $0.contains("sending…") } }
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("C-c")
        let exit = try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
        // The path may wrap (a space at the wrap is lost): the line starts the notice, the rows
        // joined hold the rest whole.
        let said = exit.joined().replacingOccurrences(of: " ", with: "")
        XCTAssertTrue(exit.contains { $0.hasPrefix("comment-tui: 1 comment not sent yet; it waits in ") }, "\(exit)")
        XCTAssertTrue(said.contains("outbox.jsonlandissentwhenthethreadisnextopen"), said)
        XCTAssertTrue(exit.contains { $0.hasPrefix("comment-tui: 1 comment not sent; it waits in ") }, "\(exit)")
        XCTAssertTrue(said.contains("outbox.jsonltoberetried,editedordiscarded"), said)
        XCTAssertFalse(said.contains(ann.accessToken) || said.contains("writteninatunnel") || said.contains("refusedbytheroom"),
                       "no token, no text: \(said)")
    }

    func testACommentSentOfflineSurvivesKillDashNineAndIsPostedOnce() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let roomID = try server.client(for: ann).createRoom(name: "Lid", preset: .publicChat, alias: "lid-\(suffix)")
        try server.client(for: ann).sendText(roomID: roomID, body: "The post")
        let terminal = try TmuxSession(columns: 90, rows: 20)
        try open("matrix:#lid-\(suffix):\(server.serverName)", as: "ann-\(suffix)", password: "pw-ann", in: terminal)

        server.stop()
        try terminal.waitFor("the status bar to say offline") { $0.last?.contains("offline") == true }
        try terminal.literal("written with the lid half closed")
        try terminal.keys("Enter")
        try terminal.waitFor("the comment pending") { $0.contains { $0.contains("sending…") } }
        kill(try terminal.workerPID(), SIGKILL)
        try terminal.waitFor("the client to be gone") { $0.contains { $0.contains("EXIT=") } }

        try server.start()
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:#lid-\(suffix):\(server.serverName)'; echo EXIT=$?")
        try terminal.waitFor("the comment sent after the restart") { screen in
            screen.contains { $0.contains("written with the lid half closed") } && !screen.contains { $0.contains("sending…") }
                && screen.last?.contains("live") == true
        }
        let bodies = try server.client(for: ann).messageBodies(roomID: roomID)
        XCTAssertEqual(bodies.filter { $0 == "written with the lid half closed" }.count, 1, "\(bodies)")
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }

    func testARoomSwitchedToEncryptionInATerminalGetsOnlyCiphertextAndAnInviteToOneIsNotTaken() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
        let boClient = server.client(for: bo)
        let roomID = try boClient.createRoom(name: "Soon secret", preset: .publicChat, alias: "soon-\(suffix)")
        try boClient.sendText(roomID: roomID, body: "The post")
        let terminal = try TmuxSession(columns: 90, rows: 20)
        try open("matrix:#soon-\(suffix):\(server.serverName)", as: "ann-\(suffix)", password: "pw-ann", in: terminal)

        // Another client switches encryption on and sends an encrypted message.
        try boClient.sendState(roomID: roomID, type: "m.room.encryption", content: ["algorithm": "m.megolm.v1.aes-sha2"])
        try boClient.send(roomID: roomID, content: ["algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEpAB+made/up",
                                                    "session_id": "s", "sender_key": "k", "device_id": "D"], type: "m.room.encrypted")
        let shown = try terminal.waitFor("the switch and the encrypted message in place") { screen in
            screen.contains { $0.contains("switched on end-to-end encryption") }
                && screen.contains { $0.contains("🔒 unable to decrypt: the sender's key has not arrived") }
        }
        XCTAssertTrue(shown[0].contains("Soon secret") && shown[0].contains("🔒 encrypted"), "\(shown)")
        XCTAssertFalse(shown.contains { $0.contains("cannot send here") }, "with its keys the client encrypts: \(shown)")
        Thread.sleep(forTimeInterval: 1)
        try terminal.literal("this must stay on this machine")
        try terminal.keys("Enter")
        try terminal.waitFor("the comment posted, encrypted") { $0.last?.contains("posted") == true }
        // What reached the room is ciphertext only.
        let annsLast = try XCTUnwrap(boClient.messages(roomID: roomID).first { $0["sender"] as? String == ann.userID && $0["type"] as? String != "m.room.member" })
        XCTAssertEqual(annsLast["type"] as? String, "m.room.encrypted")
        XCTAssertFalse(String(decoding: try JSONSerialization.data(withJSONObject: annsLast), as: UTF8.self).contains("stay on this machine"))
        XCTAssertFalse(try boClient.messageBodies(roomID: roomID).contains("this must stay on this machine"))
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }

        // An invite to an encrypted room: not joined without --join-encrypted.
        let invited = try boClient.createRoom(name: "Invited", preset: .privateChat, invite: [ann.userID],
                                              initialState: [["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]])
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(invited)'; echo EXIT=$?")
        let answer = try terminal.waitFor("the refusal to join") { $0.contains { $0.contains("EXIT=1") } }
        XCTAssertTrue(answer.joined().contains("--join-encrypted"), "the message, wrapped at the terminal's width: \(answer)")
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(invited)' --join-encrypted; echo EXIT=$?")
        try terminal.waitFor("the room open") { screen in
            screen[0].contains("Invited") && screen[0].contains("🔒 encrypted") && screen.last?.contains("live") == true
        }
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }

    func testAnnAndANioUserTalkInAnEncryptedRoomEachReadingTheOther() throws {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        let bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-encrypted-\(suffix)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nio = MatrixNioPeer(homeserver: server.baseURL, userID: bo.userID, password: "pw-bo", storeFolder: folder.path)
        let room = try XCTUnwrap(nio.run([.createEncryptedRoom(invite: [ann.userID])]).first?["room_id"] as? String)

        let terminal = try TmuxSession(columns: 90, rows: 20)
        try terminal.run("printf '%s\\n' 'pw-ann' | \(TmuxSession.clientPath) login --homeserver \(server.baseURL.absoluteString) --user ann-\(suffix) --password-stdin")
        try terminal.waitFor("Ann to log in") { $0.contains { $0.contains("logged in as @ann-\(suffix):") } }
        try terminal.run("clear; \(TmuxSession.clientPath) 'matrix:\(room)' --join-encrypted; echo EXIT=$?")
        try terminal.waitFor("the room open and live") { $0.last?.contains("live") == true }
        // Bo's client sees Ann's device once her first sync uploaded its keys, and shares its
        // room key with it; a message sent before that stays unreadable for her, so Bo tries again.
        var readable = false
        for _ in 0 ..< 6 where !readable {
            Thread.sleep(forTimeInterval: 1)
            let sent = try nio.run([.sync, .sendEncrypted(room: room, body: "hello, Ann")])
            XCTAssertNotNil(sent.last?["event_id"], "\(sent)")
            readable = try Waiting.poll(timeout: 5) { try terminal.screen().contains { $0.contains("hello, Ann") } }
        }
        let screen = try terminal.waitFor("Bo's message decrypted") { $0.contains { $0.contains("hello, Ann") } }
        XCTAssertTrue(screen[0].contains("🔒 encrypted"), "\(screen)")

        Thread.sleep(forTimeInterval: 1)
        try terminal.literal("hello, Bo")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("Enter")
        try terminal.waitFor("Ann's comment posted") { $0.last?.contains("posted") == true }
        let read = try XCTUnwrap(nio.run([.messages(room: room, limit: 20)]).first)
        let messages = try XCTUnwrap(read["messages"] as? [[String: Any]], "\(read)")
        XCTAssertEqual(messages.compactMap { $0["decrypted"] as? Bool == true ? $0["body"] as? String : nil }.suffix(2), ["hello, Ann", "hello, Bo"],
                       "Bo's client decrypted Ann's comment: \(messages)")
        try terminal.keys("C-c")
        try terminal.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }
}
