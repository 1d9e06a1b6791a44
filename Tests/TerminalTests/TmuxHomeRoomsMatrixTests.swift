import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport

/// Rooms opened from home against a real Synapse in real terminals: switching among five with
/// Ctrl-K keeps each draft and scroll position; an invite accepted from home opens the room;
/// Ann and Bo, each in a terminal of their own, talk through rooms opened from their homes.
/// Pauses of a second between a person's inputs.
final class TmuxHomeRoomsMatrixTests: RunSynapseTestCase {
    /// The screen without its status bar (which may show a passing message).
    private func withoutStatus(_ screen: [String]) -> [String] { Array(screen.dropLast()) }

    func testSwitchingAmongFiveRoomsKeepsEachDraftAndScrollPosition() throws {
        let world = try HomeMatrixWorld(server: server)
        let names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]
        let ids = try world.joinedRooms(names)
        DispatchQueue.concurrentPerform(iterations: names.count) { r in
            for n in 1...30 { _ = try? world.boClient.sendText(roomID: ids[r], body: "\(names[r]) comment \(n)") }
        }
        XCTAssertEqual(try world.boClient.messageBodies(roomID: ids[4]).last, "Echo comment 30")
        let terminal = try HomeTerminal(columns: 90, rows: 24)
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Echo")

        // Each room: opened (from home, then with Ctrl-K), a draft typed, paged up r times.
        var left: [String: [String]] = [:]
        for (r, name) in names.enumerated() {
            if r == 0 {
                try terminal.open(name, header: name)
            } else {
                try terminal.tmux.keys("C-k")
                try terminal.open(name, header: name)
            }
            try terminal.tmux.waitFor("\(name)'s newest comment") { $0.contains { $0.contains("\(name) comment 30") } }
            Thread.sleep(forTimeInterval: 1)
            try terminal.tmux.literal("draft for \(name)")
            try terminal.tmux.waitFor("\(name)'s draft") { $0.contains { $0.hasPrefix("› draft for \(name)") } }
            for _ in 0..<r {
                Thread.sleep(forTimeInterval: 1)
                try terminal.tmux.keys("PPage")
            }
            _ = try terminal.tmux.settledStyledCells(timeout: 15)
            let screen = try terminal.tmux.waitFor("\(name) at rest") { $0.last?.contains("idle") == true }
            if r > 0 { XCTAssertFalse(screen.contains { $0.contains("\(name) comment 30") }, "\(name) paged up") }
            left[name] = withoutStatus(screen)
            Thread.sleep(forTimeInterval: 1)
        }

        // Back to each with Ctrl-K: its draft and its rows as they were left, after a second each.
        for name in names.reversed().dropFirst() + [names.last!] {
            try terminal.tmux.keys("C-k")
            try terminal.open(name, header: name)
            let back = try terminal.tmux.waitFor("\(name) as it was left") { self.withoutStatus($0) == left[name] }
            XCTAssertTrue(back.contains { $0.hasPrefix("› draft for \(name)") }, "\(back)")
            Thread.sleep(forTimeInterval: 1)
        }
        // A minute away (the one long pause of these tests): Delta as it was left all the same.
        Thread.sleep(forTimeInterval: 60)
        try terminal.tmux.keys("C-k")
        try terminal.open("Delta", header: "Delta")
        // Only the comments' ages have moved on (and the blanks after them to the scrollbar).
        func aged(_ rows: [String]) -> [String] {
            rows.map {
                $0.replacingOccurrences(of: #" · (now|\d+m ago)"#, with: " · (age)", options: .regularExpression)
                    .replacingOccurrences(of: " +", with: " ", options: .regularExpression)
            }
        }
        let wasLeft = aged(try XCTUnwrap(left["Delta"]))
        let later = try terminal.tmux.waitFor("Delta as it was left, a minute later") { aged(self.withoutStatus($0)) == wasLeft }
        XCTAssertTrue(later.contains { $0.hasPrefix("› draft for Delta") }, "\(later)")
        try terminal.quit()
    }

    func testAcceptingAnInviteFromHomeOpensTheRoomAndBoSeesAnnJoin() throws {
        let world = try HomeMatrixWorld(server: server)
        _ = try world.joinedRooms(["Lobby"])
        let invited = try world.boClient.createRoom(name: "Invitation", preset: .privateChat, invite: [world.ann.userID])
        try world.boClient.sendText(roomID: invited, body: "welcome, Ann")
        let terminal = try HomeTerminal(columns: 90, rows: 24)
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Invitation")
        XCTAssertEqual(HomeScreen.preview(of: "Invitation", in: try terminal.tmux.screen()), "invite from Bo")
        XCTAssertEqual(try world.annMembership(in: invited), "invite")

        try terminal.open("Invit", header: "Invitation", timeout: 20)
        try terminal.tmux.waitFor("the room's comment") { $0.contains { $0.contains("welcome, Ann") } }
        try Waiting.until("Bo to see Ann join", timeout: 15) { try world.annMembership(in: invited) == "join" }
        Thread.sleep(forTimeInterval: 1)
        try terminal.goHome()
        try terminal.tmux.waitFor("the row a joined room") { screen in
            HomeScreen.preview(of: "Invitation", in: screen).map { $0 != "invite from Bo" } == true
        }
        try terminal.quit()
    }

    func testAnnAndBoEachInTheirOwnTerminalTalkThroughRoomsOpenedFromHome() throws {
        let world = try HomeMatrixWorld(server: server)
        let shared = try world.joinedRooms(["Shared", "Elsewhere"])[0]
        try world.boClient.sendText(roomID: shared, body: "the first word")
        let ann = try HomeTerminal(columns: 90, rows: 24)
        let bo = try HomeTerminal(columns: 90, rows: 24)
        try ann.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try bo.logIn(world.boLocalpart, password: "pw-bo", homeserver: server.baseURL)
        try ann.startHome(showing: "Shared")
        try bo.startHome(showing: "Shared")

        try bo.open("Shared", header: "Shared")
        try ann.open("Shared", header: "Shared")
        Thread.sleep(forTimeInterval: 1)
        try ann.tmux.literal("hello from ann's home")
        Thread.sleep(forTimeInterval: 1)
        try ann.tmux.keys("Enter")
        try bo.tmux.waitFor("ann's comment on bo's screen") { $0.contains { $0.contains("hello from ann's home") } }

        // Bo at home: Ann's next comment comes to his row.
        try bo.goHome()
        Thread.sleep(forTimeInterval: 1)
        try ann.tmux.literal("and another")
        Thread.sleep(forTimeInterval: 1)
        try ann.tmux.keys("Enter")
        let home = try bo.tmux.waitFor("ann's comment on bo's home row") { screen in
            HomeScreen.preview(of: "Shared", in: screen) == "Ann: and another"
        }
        XCTAssertEqual(HomeScreen.row(named: "Shared", in: home), 1, "newest first:\n\(home.joined(separator: "\n"))")
        XCTAssertEqual(try world.boClient.messageBodies(roomID: shared).suffix(2), ["hello from ann's home", "and another"])
        try ann.quit()
        try bo.quit()
    }

    func testAnInviteDeclinedAndARoomLeftFromHomeAskFirstAndBoSeesAnnGo() throws {
        let world = try HomeMatrixWorld(server: server)
        let lobby = try world.joinedRooms(["Lobby"])[0]
        let invited = try world.boClient.createRoom(name: "Unwanted", preset: .privateChat, invite: [world.ann.userID])
        let terminal = try HomeTerminal(columns: 90, rows: 24)
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.startHome(showing: "Unwanted")

        try terminal.tmux.literal("Unwanted")
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.keys("M-x")
        try terminal.tmux.waitFor("the question") { $0.first?.hasPrefix(" Decline the invite to Unwanted? y/n") == true }
        XCTAssertEqual(try world.annMembership(in: invited), "invite", "nothing done before the answer")
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.literal("y")
        try terminal.tmux.waitFor("the invite gone from home") { HomeScreen.row(named: "Unwanted", in: $0) == nil }
        try Waiting.until("Bo to see the invite declined", timeout: 15) { try world.annMembership(in: invited) == "leave" }

        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.keys("Escape")
        try terminal.tmux.waitFor("the filter cleared") { $0.first?.hasPrefix(" Home · 2 threads") == true }
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.literal("Lobby")
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.keys("M-l")
        try terminal.tmux.waitFor("the question") { $0.first?.hasPrefix(" Leave Lobby? y/n") == true }
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.literal("n")
        try terminal.tmux.waitFor("no question") { $0.first?.hasPrefix(" Home") == true }
        XCTAssertEqual(try world.annMembership(in: lobby), "join", "n keeps the room")
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.keys("M-l")
        try terminal.tmux.waitFor("the question again") { $0.first?.hasPrefix(" Leave Lobby? y/n") == true }
        Thread.sleep(forTimeInterval: 1)
        try terminal.tmux.literal("y")
        try terminal.tmux.waitFor("the room gone from home") { HomeScreen.row(named: "Lobby", in: $0) == nil }
        try Waiting.until("Bo to see Ann leave", timeout: 15) { try world.annMembership(in: lobby) == "leave" }
        try terminal.quit()
    }

    func testAHostileRoomNameAndMessageReachHomeAndTheNotificationAsTextOnly() throws {
        let world = try HomeMatrixWorld(server: server)
        let title = "\u{1B}]0;pwned\u{07}Evil\u{1B}[2J\u{9B}31m room"
        let evil = try world.joinedRooms([title])[0]
        let terminal = try HomeTerminal(columns: 90, rows: 24)
        try terminal.logIn(world.annLocalpart, password: "pw-ann", homeserver: server.baseURL)
        try terminal.tmux.run("clear; TERM=xterm-256color TERM_PROGRAM=WezTerm \(TmuxSession.clientPath); echo EXIT=$?")
        try terminal.tmux.waitFor("home with the room") { $0.contains { $0.contains("pwned") && $0.contains("Evil") } && $0.last?.contains(" live") == true }
        try terminal.focus(false)
        try world.mention(in: evil, "look \u{1B}]777;notify;fake;fake\u{1B}\\ \u{1B}]0;title\u{07}here")
        try terminal.tmux.waitFor("the preview") { $0.contains { $0.contains("here") && $0.contains("Ann, look") } }
        try Waiting.until("the notification", state: { terminal.written().debugDescription }) { !terminal.notifications().isEmpty }
        Thread.sleep(forTimeInterval: 1)
        let raised = terminal.notifications()
        XCTAssertEqual(raised.count, 1, "\(raised)")
        let first = try XCTUnwrap(raised.first)
        XCTAssertFalse(first.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, first.debugDescription)
        XCTAssertEqual(first.filter { $0 == ";" }.count, 2, "notify, title, body: \(first.debugDescription)")
        // Nothing from the room became a sequence: its escapes left the client as placeholders (␛), never as ESC.
        let written = terminal.written()
        XCTAssertFalse(written.contains("\u{1B}]0;pwned") || written.contains("\u{1B}]0;title") || written.contains("\u{1B}]777;notify;fake"),
                       written.debugDescription)
        try terminal.quit()
    }
}
