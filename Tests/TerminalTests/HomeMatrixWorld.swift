import Foundation
import XCTest
import SynapseFixture

/// Two people on a real Synapse and the rooms between them, made quickly through the test
/// client (the fixture's Synapse has its rate limits lifted): rooms are created in parallel,
/// then their messages sent one after another, so the order of activity is the order of sending.
struct HomeMatrixWorld {
    let server: SynapseServer
    let suffix: String
    let ann: MatrixTestAccount
    let bo: MatrixTestAccount
    var annLocalpart: String { "ann-\(suffix)" }
    var boLocalpart: String { "bo-\(suffix)" }
    var annClient: MatrixTestClient { server.client(for: ann) }
    var boClient: MatrixTestClient { server.client(for: bo) }

    init(server: SynapseServer) throws {
        self.server = server
        suffix = UUID().uuidString.prefix(6).lowercased()
        ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann", displayName: "Ann")
        bo = try server.register(localpart: "bo-\(suffix)", password: "pw-bo", displayName: "Bo")
    }

    /// Rooms Bo creates (public unless `isPrivate`; encrypted from the start if `isEncrypted`)
    /// and Ann joins, made in parallel; returns their ids in the order of `names`.
    func joinedRooms(_ names: [String], isPrivate: Bool = false, isEncrypted: Bool = false) throws -> [String] {
        let ids = LockedSlots(count: names.count)
        DispatchQueue.concurrentPerform(iterations: names.count) { i in
            ids.set(i, Result {
                let encryption: [String: Any] = ["type": "m.room.encryption", "state_key": "",
                                                 "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
                let id = try boClient.createRoom(name: names[i], preset: isPrivate ? .privateChat : .publicChat,
                                                 invite: isPrivate ? [ann.userID] : [], initialState: isEncrypted ? [encryption] : [])
                try annClient.join(id)
                return id
            })
        }
        return try ids.values()
    }

    /// A direct room from Bo (no name: it is named after him), joined by Ann and listed in her `m.direct`.
    func directRoom() throws -> String {
        let body: [String: Any] = ["preset": "trusted_private_chat", "is_direct": true, "invite": [ann.userID]]
        let json = try boClient.call("POST", "/_matrix/client/v3/createRoom", body: body)
        let id = try XCTUnwrap(json["room_id"] as? String)
        try annClient.join(id)
        try annClient.call("PUT", "/_matrix/client/v3/user/\(escape(ann.userID))/account_data/m.direct",
                           body: [bo.userID: [id]])
        return id
    }

    /// Bo mentions Ann (by name and in `m.mentions`, so the server counts a highlight).
    @discardableResult
    func mention(in roomID: String, _ body: String) throws -> String {
        try boClient.send(roomID: roomID, content: ["msgtype": "m.text", "body": "Ann, \(body)",
                                                    "m.mentions": ["user_ids": [ann.userID]]])
    }

    /// Bo's undecryptable message (what another client sends in an encrypted room).
    @discardableResult
    func encryptedMessage(in roomID: String) throws -> String {
        try boClient.send(roomID: roomID, content: ["algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEpAB+made/up",
                                                    "session_id": "s", "sender_key": "k", "device_id": "D"],
                          type: "m.room.encrypted")
    }

    /// The server's counts for Ann's joined rooms, as another client of hers syncs them:
    /// room id → (notification_count, highlight_count).
    func annCounts() throws -> [String: (unread: Int, highlights: Int)] {
        // Synapse keeps a /sync answer for two minutes for a request asked again the same:
        // a filter of its own makes each ask new.
        let filter = #"{"room":{"timeline":{"limit":1,"not_types":["x.ask.\#(UUID().uuidString)"]}}}"#
        let answer = try annClient.sync(filter: filter)
        let joined = (answer["rooms"] as? [String: Any])?["join"] as? [String: Any] ?? [:]
        return joined.mapValues { entry in
            let counts = (entry as? [String: Any])?["unread_notifications"] as? [String: Any] ?? [:]
            return (counts["notification_count"] as? Int ?? 0, counts["highlight_count"] as? Int ?? 0)
        }
    }

    /// Ann's other client reads the room up to `eventID`: its read receipt and read marker.
    func annReads(_ roomID: String, upTo eventID: String) throws {
        try annClient.call("POST", "/_matrix/client/v3/rooms/\(escape(roomID))/read_markers",
                           body: ["m.fully_read": eventID, "m.read": eventID])
    }

    /// Ann's membership in a room as Bo's client sees it.
    func annMembership(in roomID: String) throws -> String? {
        let state = try boClient.call("GET", "/_matrix/client/v3/rooms/\(escape(roomID))/state/m.room.member/\(escape(ann.userID))")
        return state["membership"] as? String
    }

    private func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? segment
    }
}

/// Results filled in from parallel work, read once all of it is done.
private final class LockedSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<String, Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<String, Error>) { lock.withLock { slots[index] = result } }
    func values() throws -> [String] { try lock.withLock { slots }.map { try XCTUnwrap($0).get() } }
}

/// Home as a terminal shows it: finds a thread's row by its name and reads its badges.
enum HomeScreen {
    /// The row (index on screen) whose name line starts with `name` followed by a blank.
    static func row(named name: String, in screen: [String]) -> Int? {
        screen.firstIndex { line in
            guard line.hasPrefix("  ") || line.hasPrefix("▸ ") else { return false }
            let rest = line.dropFirst(2)
            return rest.hasPrefix(name) && (rest.count == name.count || rest.dropFirst(name.count).first == " ")
        }
    }

    /// The unread count and mention badge on `name`'s row (0 where none shows); nil without the row.
    static func badges(of name: String, in screen: [String]) -> (unread: Int, highlights: Int)? {
        guard let index = row(named: name, in: screen) else { return nil }
        let tokens = screen[index].dropFirst(2).dropFirst(name.count).split(separator: " ")
        let unread = tokens.first { !$0.isEmpty && $0.allSatisfy(\.isNumber) }.flatMap { Int($0) } ?? 0
        let highlights = tokens.first { $0.hasPrefix("@") && $0.dropFirst().allSatisfy(\.isNumber) }.flatMap { Int($0.dropFirst()) } ?? 0
        return (unread, highlights)
    }

    /// The preview line under `name`'s row.
    static func preview(of name: String, in screen: [String]) -> String? {
        guard let index = row(named: name, in: screen), index + 1 < screen.count else { return nil }
        return screen[index + 1].trimmingCharacters(in: .whitespaces)
    }
}

/// A terminal that says it is WezTerm (so notifications are OSC 777), every byte its programs
/// write kept by `pipe-pane`, where a person logs in from the shell and starts `comment-tui`.
final class HomeTerminal {
    let tmux: TmuxSession
    private var output: URL { tmux.home.appendingPathComponent("pane-output") }

    init(columns: Int = 100, rows: Int = 70) throws {
        tmux = try TmuxSession(columns: columns, rows: rows)
        try tmux.tmux(["pipe-pane", "-O", "-t", "0", "cat >> '\(output.path)'"])
    }

    /// Logs `localpart` in on `homeserver` from the shell, as the manual says.
    func logIn(_ localpart: String, password: String, homeserver: URL) throws {
        try tmux.run("printf '%s\\n' '\(password)' | \(TmuxSession.clientPath) login --homeserver \(homeserver.absoluteString) --user \(localpart) --password-stdin")
        try tmux.waitFor("\(localpart) to log in") { $0.contains { $0.contains("logged in as @\(localpart):") } }
    }

    /// Starts `comment-tui` with no thread (home) and waits for home with the account live and `name` listed.
    func startHome(showing name: String, live: Bool = true, timeout: Double = 20) throws {
        try tmux.run("clear; TERM=xterm-256color TERM_PROGRAM=WezTerm \(TmuxSession.clientPath); echo EXIT=$?")
        try tmux.waitFor("home listing \(name)", timeout: timeout) { screen in
            screen.first?.hasPrefix(" Home") == true && HomeScreen.row(named: name, in: screen) != nil
                && (!live || screen.last?.contains(" live") == true)
        }
        try Waiting.until("focus reports to be turned on", state: { self.written().debugDescription }) {
            self.written().contains("\u{1B}[?1004h")
        }
    }

    /// Everything the pane's programs wrote so far.
    func written() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The notification escapes (OSC 777) written so far, each `notify;title;body`.
    func notifications() -> [String] {
        written().components(separatedBy: "\u{1B}]777;").dropFirst().map { piece in
            piece.range(of: "\u{1B}\\").map { String(piece[..<$0.lowerBound]) } ?? String(piece)
        }
    }

    /// The terminal loses or regains the focus: its report typed into the pane, then a realistic pause.
    func focus(_ focused: Bool) throws {
        try tmux.tmux(["send-keys", "-t", "0", "-H", "1b", "5b", focused ? "49" : "4f"])
        Thread.sleep(forTimeInterval: 1)
    }

    /// At home: types `filter`, pauses, presses Enter, and waits for the thread's header.
    func open(_ filter: String, header: String, timeout: Double = 15) throws {
        try tmux.literal(filter)
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("Enter")
        try tmux.waitFor("\(header) open", timeout: timeout) { screen in
            screen.first.map { $0.contains(header) && !$0.hasPrefix(" Home") } == true && screen.last?.contains("live") == true
        }
    }

    /// Alt-H: home again.
    func goHome() throws {
        try tmux.keys("M-h")
        try tmux.waitFor("home") { $0.first?.hasPrefix(" Home") == true }
    }

    /// Ctrl-C, and the exit status 0.
    func quit() throws {
        try tmux.keys("C-c")
        try tmux.waitFor("the client to exit") { $0.contains { $0.contains("EXIT=0") } }
    }
}
