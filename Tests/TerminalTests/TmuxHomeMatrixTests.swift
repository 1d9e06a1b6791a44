import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// Home against a real Synapse in a real terminal: Ann in 30 rooms (a direct one, an invite
/// pending, an encrypted one, mentions from Bo), `comment-tui` started with her account logged
/// in. Her rows follow the server's counts, live; a message off screen notifies once; reading
/// here or in another of her clients clears the count everywhere; a start offline shows home
/// from its cache. Pauses of a second between a person's inputs.
final class TmuxHomeMatrixTests: OwnSynapseTestCase {
    /// Ann's 30 rooms and what was last said in each.
    struct ThirtyRooms {
        var world: HomeMatrixWorld
        /// The public rooms, `Room 01` … `Room 27`, by name.
        var rooms: [String: String] = [:]
        var vault = "", direct = "", invitation = ""
        /// The joined rooms' names, newest activity first.
        var order: [String] = []
        /// The newest event of each joined room, by name.
        var newest: [String: String] = [:]
        /// Rooms whose newest message mentions Ann.
        static let mentioned: Set<String> = ["Room 04", "Room 11", "Room 19"]

        func id(of name: String) -> String {
            switch name {
            case "Vault": vault
            case "Bo": direct
            case "Invitation": invitation
            default: rooms[name]!
            }
        }
    }

    /// Makes Ann's 30 rooms: created in parallel, then Bo's messages room after room (one to
    /// three each), so each room's newest activity is the order of sending.
    private func thirtyRooms() throws -> ThirtyRooms {
        var made = ThirtyRooms(world: try HomeMatrixWorld(server: server))
        let world = made.world
        let names = (1...27).map { String(format: "Room %02d", $0) }
        for (name, id) in zip(names, try world.joinedRooms(names)) { made.rooms[name] = id }
        made.vault = try world.joinedRooms(["Vault"], isPrivate: true, isEncrypted: true)[0]
        made.direct = try world.directRoom()
        made.invitation = try world.boClient.createRoom(name: "Invitation", preset: .privateChat, invite: [world.ann.userID])
        // A fixed shuffle of the rooms (11 and 27 share no factor), the vault and the direct room among them.
        let shuffled: [Int] = (0..<27).sorted { (a: Int, b: Int) -> Bool in (a * 11) % 27 < (b * 11) % 27 }
        var sendOrder: [String] = shuffled.map { names[$0] }
        sendOrder.insert("Vault", at: 9)
        sendOrder.insert("Bo", at: 20)
        for (n, name) in sendOrder.enumerated() {
            let id = made.id(of: name)
            switch name {
            case "Vault": made.newest[name] = try world.encryptedMessage(in: id)
            case "Bo": made.newest[name] = try world.boClient.sendText(roomID: id, body: "a word between us")
            default:
                for k in 0..<(n % 3) { try world.boClient.sendText(roomID: id, body: "note \(k) in \(name)") }
                made.newest[name] = ThirtyRooms.mentioned.contains(name)
                    ? try world.mention(in: id, "what do you think of \(name)?")
                    : try world.boClient.sendText(roomID: id, body: "newest in \(name)")
            }
        }
        made.order = sendOrder.reversed()
        return made
    }

    /// Whether `screen` shows every joined room with the server's counts, in activity order, and the invite.
    /// (The invite's stripped state has no time: it counts as new when it first arrives.)
    private func showsRooms(_ made: ThirtyRooms, counts: [String: (unread: Int, highlights: Int)], on screen: [String]) -> Bool {
        var last = -1
        for name in made.order {
            guard let row = HomeScreen.row(named: name, in: screen), row > last,
                  let shown = HomeScreen.badges(of: name, in: screen),
                  let server = counts[made.id(of: name)],
                  shown.unread == server.unread, shown.highlights == server.highlights else { return false }
            last = row
        }
        return HomeScreen.row(named: "Invitation", in: screen) != nil
    }

    func testHomeListsThirtyRoomsInActivityOrderWithTheServersCounts() throws {
        let made = try thirtyRooms()
        let counts = try made.world.annCounts()
        XCTAssertEqual(counts.count, 29, "29 joined rooms (and an invite)")
        XCTAssertTrue(ThirtyRooms.mentioned.allSatisfy { counts[made.id(of: $0)]!.highlights > 0 }, "the server counts the mentions")
        let terminal = try HomeTerminal()
        try terminal.logIn(made.world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Invitation")
        let home = try terminal.tmux.waitFor("every room in activity order with the server's counts") {
            self.showsRooms(made, counts: counts, on: $0)
        }
        XCTAssertTrue(home[0].contains("31 threads"), "30 rooms and the demo: \(home[0])")
        XCTAssertEqual(HomeScreen.row(named: "Invitation", in: home), 1, "the invite, new to the client, first:\n\(home.joined(separator: "\n"))")
        XCTAssertEqual(HomeScreen.row(named: made.order[0], in: home), 3, "then the newest room")
        XCTAssertTrue(home[1].hasPrefix("▸ "), "the selection on the first row, not on the demo listed first at the start:\n\(home.joined(separator: "\n"))")
        let vault = try XCTUnwrap(HomeScreen.row(named: "Vault", in: home))
        XCTAssertTrue(home[vault].contains("🔒"), home[vault])
        XCTAssertEqual(HomeScreen.preview(of: "Invitation", in: home), "invite from Bo")
        XCTAssertEqual(HomeScreen.preview(of: "Bo", in: home), "Bo: a word between us")
        XCTAssertEqual(HomeScreen.preview(of: "Room 11", in: home), "Bo: Ann, what do you think of Room 11?")
        // The demo, never opened on this machine, still previews its newest comment.
        let demo = try XCTUnwrap(HomeScreen.preview(of: "Scrolling like a phone, in a terminal", in: home))
        XCTAssertTrue(demo.contains("Last comment of the demo"), demo)
        for name in made.order where counts[made.id(of: name)]!.unread > 0 {
            // Unread rooms are bold.
            let row = try XCTUnwrap(HomeScreen.row(named: name, in: home))
            let styled = try terminal.tmux.styledCells()[row]
            XCTAssertTrue(styled[2].hasSuffix("|1") || styled[2].contains("|1;"), "\(name) bold: \(styled[2])")
        }
        try terminal.quit()
    }

    func testAMessageOffScreenUpdatesItsRowLiveAndNotifiesOnce() throws {
        let made = try thirtyRooms()
        let world = made.world
        let terminal = try HomeTerminal()
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Invitation")
        let before = try XCTUnwrap(HomeScreen.badges(of: "Bo", in: try terminal.tmux.screen()))

        // At home, unfocused: Bo writes in the direct room.
        try terminal.focus(false)
        try world.boClient.sendText(roomID: made.direct, body: "the secret plan")
        let live = try terminal.tmux.waitFor("the direct room's row updated, first") { screen in
            HomeScreen.preview(of: "Bo", in: screen) == "Bo: the secret plan"
                && HomeScreen.badges(of: "Bo", in: screen)?.unread == before.unread + 1
        }
        XCTAssertEqual(HomeScreen.row(named: "Bo", in: live), 1, "newest activity first:\n\(live.joined(separator: "\n"))")
        try Waiting.until("the notification", state: { terminal.written().debugDescription }) { !terminal.notifications().isEmpty }
        XCTAssertEqual(terminal.notifications(), ["notify;Bo;new message from Bo"], "a private room's text stays out")

        // Focused, in another room: Bo mentions Ann in a public room not on screen.
        try terminal.focus(true)
        try terminal.open("Room 01", header: "Room 01")
        try world.mention(in: made.id(of: "Room 02"), "are you there?")
        try Waiting.until("the mention's notification", state: { terminal.written().debugDescription }) {
            terminal.notifications().count == 2
        }
        XCTAssertEqual(terminal.notifications().last, "notify;Room 02;Bo: Ann, are you there?")
        try terminal.goHome()
        try terminal.tmux.waitFor("Room 02's row with its mention") { screen in
            HomeScreen.preview(of: "Room 02", in: screen) == "Bo: Ann, are you there?"
                && (HomeScreen.badges(of: "Room 02", in: screen)?.highlights ?? 0) >= 1
        }
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(terminal.notifications().count, 2, "one each: \(terminal.notifications())")
        try terminal.quit()
    }

    func testReadingARoomClearsItsCountHereAndInAnotherClientOfTheAccount() throws {
        let made = try thirtyRooms()
        let world = made.world
        let name = "Room 11"
        let id = made.id(of: name)
        XCTAssertGreaterThan(try XCTUnwrap(world.annCounts()[id]).unread, 0)
        let terminal = try HomeTerminal()
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Invitation")
        try terminal.tmux.waitFor("\(name) unread") { (HomeScreen.badges(of: name, in: $0)?.unread ?? 0) > 0 }

        try terminal.open(name, header: name)
        try terminal.tmux.waitFor("the newest comment on screen") { $0.contains { $0.contains("what do you think of \(name)?") } }
        Thread.sleep(forTimeInterval: 1)
        try terminal.goHome()
        try terminal.tmux.waitFor("\(name)'s count cleared at home") { screen in
            HomeScreen.badges(of: name, in: screen).map { $0 == (0, 0) } == true
        }
        // Ann's other client hears the receipt from the server.
        try Waiting.until("the server to count \(name) read", timeout: 15) {
            try world.annCounts()[id].map { $0 == (0, 0) } == true
        }
        try terminal.quit()
    }

    func testAReceiptFromAnotherClientOfTheAccountClearsTheRowLive() throws {
        let made = try thirtyRooms()
        let world = made.world
        let name = "Room 19"
        let terminal = try HomeTerminal()
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Invitation")
        try terminal.tmux.waitFor("\(name) unread, mentioned") { screen in
            HomeScreen.badges(of: name, in: screen).map { $0.unread > 0 && $0.highlights > 0 } == true
        }
        Thread.sleep(forTimeInterval: 1)
        try world.annReads(made.id(of: name), upTo: try XCTUnwrap(made.newest[name]))
        let cleared = try terminal.tmux.waitFor("\(name)'s count cleared live") { screen in
            HomeScreen.badges(of: name, in: screen).map { $0 == (0, 0) } == true
        }
        // The others keep theirs.
        XCTAssertGreaterThan(try XCTUnwrap(HomeScreen.badges(of: "Room 04", in: cleared)).highlights, 0)
        try terminal.quit()
    }

    func testKilledAndRestartedOfflineHomeShowsFromItsCacheThenCatchesUp() throws {
        let made = try thirtyRooms()
        let world = made.world
        // Ann's client reaches the server only through a relay the test cuts.
        let relay = try TCPRelay(to: try XCTUnwrap(server.port))
        defer { relay.stop() }
        let terminal = try HomeTerminal()
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: relay.baseURL)
        try terminal.startHome(showing: "Invitation")
        let counts = try world.annCounts()
        let before = try terminal.tmux.waitFor("every room with the server's counts") { self.showsRooms(made, counts: counts, on: $0) }
        Thread.sleep(forTimeInterval: 1)

        kill(try terminal.tmux.workerPID(), SIGKILL)
        try terminal.tmux.waitFor("the client to be gone") { $0.contains { $0.contains("EXIT=") } }
        relay.cut()
        try terminal.startHome(showing: "Invitation", live: false)
        let offline = try terminal.tmux.waitFor("home from the cache, offline") { screen in
            screen.last?.contains("offline") == true && self.showsRooms(made, counts: counts, on: screen)
        }
        // Names, markers, counts and previews as before the kill (the times may have aged).
        func rows(_ screen: [String]) -> [String] {
            screen.dropFirst().dropLast().map { $0.replacingOccurrences(of: #" (now|\d+[mhd] ago)$"#, with: "", options: .regularExpression) }
        }
        XCTAssertEqual(rows(offline), rows(before))
        XCTAssertEqual(offline[0], before[0])

        // What came while it was away arrives once the server is reachable again.
        try world.boClient.sendText(roomID: made.id(of: "Room 05"), body: "said while you were away")
        relay.restore()
        let caughtUp = try terminal.tmux.waitFor("the catch-up", timeout: 40) { screen in
            screen.last?.contains(" live") == true && HomeScreen.preview(of: "Room 05", in: screen) == "Bo: said while you were away"
        }
        XCTAssertEqual(HomeScreen.row(named: "Room 05", in: caughtUp), 1, "newest first:\n\(caughtUp.joined(separator: "\n"))")
        try terminal.quit()
    }

    /// Whether the thread on screen is `name` (its header, open or collapsed).
    private func header(_ screen: [String], is name: String) -> Bool {
        screen.first.map { $0 == " \(name)" || $0.hasPrefix(" \(name) · ") } == true
    }

    func testAltNAndAltAGoThroughTheMentionedAndUnreadRoomsInHomesOrder() throws {
        let made = try thirtyRooms()
        let terminal = try HomeTerminal()
        try terminal.logIn(made.world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Invitation")
        let counts = try made.world.annCounts()
        try terminal.tmux.waitFor("every room with the server's counts") { self.showsRooms(made, counts: counts, on: $0) }
        try terminal.open("Room 01", header: "Room 01")
        // From the oldest room, cycling: the mentioned rooms newest first.
        let mentioned = made.order.filter(ThirtyRooms.mentioned.contains)
        XCTAssertEqual(mentioned, ["Room 19", "Room 04", "Room 11"])
        for name in mentioned {
            Thread.sleep(forTimeInterval: 1)
            try terminal.tmux.keys("M-n")
            try terminal.tmux.waitFor("\(name), the next mention") { self.header($0, is: name) }
        }
        // The next unread after Room 11 is the room under it at home.
        let next = made.order[try XCTUnwrap(made.order.firstIndex(of: "Room 11")) + 1]
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.keys("M-a")
        try terminal.tmux.waitFor("\(next), the next unread") { self.header($0, is: next) }
        try terminal.quit()
    }
}
