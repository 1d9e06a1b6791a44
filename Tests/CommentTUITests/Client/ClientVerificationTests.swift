import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// The client's verification panel driven by a pilot (its keys, the pilot's clock) over an
/// account link whose device's sync the test takes step by step, against another device of
/// the same account in the process; the protocol's requests go to the shared Synapse (a
/// request is offered only once the asker's keys are looked up there, and every answer is a
/// to-device message: there is no verification without the server).
final class ClientVerificationTests: SharedSynapseTestCase {
    /// The client at home with Ann's account linked (its sync not started: `ours` takes it), and
    /// Ann's other device.
    private struct Setup {
        var pilot: Pilot
        var ours: VerifyingDevice
        var other: VerifyingDevice
        var userID: String
        var ourDevice: String
        var otherDevice: String
        var link: AccountLink
    }

    /// `user`'s account linked as the client links it (its sync not started: `ours` takes it),
    /// its data in a folder of its own.
    private func link(_ user: MatrixTestUser, on server: SynapseServer) throws
        -> (account: MatrixAccounts.Account, environment: [String: String], mailbox: ClientMailbox, link: AccountLink, ours: VerifyingDevice) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("client-sas-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_DATA_HOME": folder.path + "/data", "XDG_CONFIG_HOME": folder.path + "/config"]
        let account = MatrixAccounts.Account(userID: user.account.userID, homeserver: server.baseURL.absoluteString,
                                             accessToken: user.account.accessToken, deviceID: user.account.deviceID)
        let mailbox = try ClientMailbox()
        let link = AccountLink(account: account, client: user.client, environment: environment, usesCache: false, mailbox: mailbox)
        let ours = VerifyingDevice(keys: try XCTUnwrap(link.sync.roomKeys), client: user.client)
        try ours.sync()
        return (account, environment, mailbox, link, ours)
    }

    /// - Parameter inThread: the client starts in a thread of 30 comments (`Numbered`), not at home.
    private func linkedClient(inThread: Bool = false) throws -> Setup {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let (account, _, mailbox, link, ours) = try link(ann, on: server)
        let second = try secondLogin(ann.account)
        let other = try verifyingDevice(userID: ann.account.userID, deviceID: second.deviceID, token: second.token)
        let key = ThreadKey.file(path: "/t/Numbered")
        let opener = try ThreadOpener(inBackground: false) { _, _ in
            var fixture = ThreadFixture.numbered(30)
            fixture.thread.title = "Numbered"
            return OpenCommand.Target(source: try QueuedThreadSource(thread: fixture.thread), me: ThreadFixture.ann)
        }
        let start = inThread ? try opener.openNow(key) : nil
        let client = CommentClient(columns: 90, rows: 24, settings: CommentClient.SessionSettings(), start: start,
                                   startKey: inThread ? key : nil, summaries: [], opener: opener, mailbox: mailbox,
                                   accounts: [account.userID: link])
        client.wallTime = ThreadFixture.now
        let pilot = Pilot(client: client, screen: HeadlessScreen(columns: 90, rows: 24))
        return Setup(pilot: pilot, ours: ours, other: other, userID: account.userID, ourDevice: account.deviceID,
                     otherDevice: second.deviceID, link: link)
    }

    /// Syncs both devices and takes the client's mailbox until the screen shows `text` (at most 20 s).
    private func drive(_ setup: Setup, until text: String, other act: () -> Void = {}, reads: Bool = true,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let end = Date().addingTimeInterval(20)
        while !setup.pilot.lines.contains(where: { $0.contains(text) }) {
            guard Date() < end else {
                return XCTFail("no \(text) on screen:\n\(setup.pilot.lines.joined(separator: "\n"))", file: file, line: line)
            }
            try setup.ours.sync()
            try setup.other.sync()
            act()
            setup.pilot.takeUpdates()
            if !setup.pilot.lines.contains(where: { $0.contains(text) }) { Thread.sleep(forTimeInterval: 0.05) }
        }
        // The reader reads it before answering: the panel's keys wait a second after it changes.
        if reads { setup.pilot.advance(by: CommentClient.answerDelay + 0.1) }
    }

    func testARequestFromOurOtherDeviceOpensThePanelOverHomeAndItsKeysVerify() throws {
        let setup = try linkedClient()
        let pilot = setup.pilot
        XCTAssertTrue(pilot.lines[0].hasPrefix(" Home"), pilot.lines.joined(separator: "\n"))
        let id = try setup.other.keys.verifications.request(userID: setup.userID, deviceID: setup.ourDevice)

        try drive(setup, until: "your other device asks to verify this device", reads: false)
        XCTAssertTrue(pilot.lines.contains { $0.contains(" Verify your device \(setup.otherDevice)") }, pilot.lines.joined(separator: "\n"))
        // A key typed as the panel appears (meant for what was under it) answers nothing.
        pilot.press(KeyPress(.character("y")))
        XCTAssertTrue(pilot.lines.contains { $0.contains("the panel just changed: read it, then answer") }, pilot.lines.joined(separator: "\n"))
        XCTAssertEqual(setup.other.keys.verifications.verification(id)?.stage, .waitingForThem)
        pilot.advance(by: CommentClient.answerDelay + 0.1)
        // Under the panel nothing moves: a key home would take does nothing.
        pilot.press(KeyPress(.character("j")))
        XCTAssertTrue(pilot.lines.contains { $0.contains("asks to verify this device") })

        pilot.press(.enter)
        try drive(setup, until: "Compare these emoji with your other device's screen:")
        let compared = Date().addingTimeInterval(5)
        while setup.other.keys.verifications.verification(id)?.stage != .comparing, Date() < compared { try setup.other.sync() }
        let theirs = try XCTUnwrap(setup.other.keys.verifications.verification(id))
        XCTAssertEqual(theirs.stage, .comparing)
        let names = try XCTUnwrap(pilot.lines.first { line in theirs.emoji.allSatisfy { line.contains($0.name) } },
                                  "the other device's seven emoji names on one row:\n\(pilot.lines.joined(separator: "\n"))")
        XCTAssertEqual(theirs.emoji.count, 7, names)
        // (The screen shows each emoji's base: a variation selector is the terminal's to draw or not.)
        let symbols = theirs.emoji.map { $0.symbol.replacingOccurrences(of: "\u{FE0F}", with: "") }
        XCTAssertTrue(pilot.lines.contains { line in symbols.allSatisfy { line.contains($0) } },
                      "and their seven emoji \(symbols):\n\(pilot.lines.joined(separator: "\n"))")
        let numbers = theirs.decimals.map(String.init).joined(separator: " · ")
        XCTAssertTrue(pilot.lines.contains { $0.contains("or the numbers \(numbers)") }, pilot.lines.joined(separator: "\n"))

        // Enter never confirms emoji: it says what does.
        pilot.press(.enter)
        XCTAssertTrue(pilot.lines.contains { $0.contains("press y if the emoji match, n if they differ") }, pilot.lines.joined(separator: "\n"))
        pilot.press(KeyPress(.character("y")))
        try drive(setup, until: "You said they match.")
        setup.other.keys.verifications.confirm(id)
        try drive(setup, until: "✓ your device \(setup.otherDevice) is verified: each trusts the other.")
        XCTAssertEqual(setup.other.keys.verifications.verification(id)?.stage, .verified)
        try drive(setup, until: "device \(setup.otherDevice) marked verified here")

        // Any key closes it for good: home again, and the account's next change does not bring it back.
        pilot.press(KeyPress(.character("j")))
        XCTAssertFalse(pilot.lines.contains { $0.contains(" Verify ") }, pilot.lines.joined(separator: "\n"))
        setup.link.sync.roomKeys?.verifications.onChange?()
        pilot.takeUpdates()
        XCTAssertFalse(pilot.lines.contains { $0.contains(" Verify ") }, pilot.lines.joined(separator: "\n"))
        XCTAssertTrue(pilot.lines[0].hasPrefix(" Home"))
    }

    func testAltVAtHomeAsksOurOtherDeviceAndEscCancelsItThere() throws {
        let setup = try linkedClient()
        let pilot = setup.pilot
        pilot.press(KeyPress(.character("v"), .alt))
        XCTAssertTrue(pilot.lines.last?.contains("asking your other devices to verify this one") == true, pilot.lines.joined(separator: "\n"))
        try drive(setup, until: "Waiting for your other device to accept")
        XCTAssertTrue(pilot.lines.contains { $0.contains(" Verify this device") }, pilot.lines.joined(separator: "\n"))
        let asked = Date().addingTimeInterval(5)
        while setup.other.verifications.isEmpty, Date() < asked { try setup.other.sync() }
        let theirs = try XCTUnwrap(setup.other.verifications.first, "the other device was asked")
        XCTAssertEqual(theirs.stage, .incoming)

        // Ctrl-C still quits under the panel.
        XCTAssertEqual(pilot.press(KeyPress(.character("c"), .ctrl)), [.quit])
        pilot.press(.escape)
        try drive(setup, until: "✗ Not verified: the verification was cancelled")
        let end = Date().addingTimeInterval(10)
        while setup.other.verifications.first?.stage != .cancelled, Date() < end { try setup.other.sync() }
        XCTAssertEqual(setup.other.verifications.first?.cancelCode, .user, "the other device heard the cancel")
    }

    func testQuittingMidVerificationCancelsItOnTheOtherDevice() throws {
        let setup = try linkedClient()
        let id = try setup.other.keys.verifications.request(userID: setup.userID, deviceID: setup.ourDevice)
        try drive(setup, until: "your other device asks to verify this device")
        setup.pilot.press(.enter)
        try drive(setup, until: "Compare these emoji")
        // The loop closes the client at exit: the other device is told, not left waiting for its timeout.
        setup.pilot.client.close()
        let end = Date().addingTimeInterval(5)
        while setup.other.keys.verifications.verification(id)?.stage != .cancelled, Date() < end {
            try setup.other.sync()
            Thread.sleep(forTimeInterval: 0.05)
        }
        let theirs = try XCTUnwrap(setup.other.keys.verifications.verification(id))
        XCTAssertEqual(theirs.stage, .cancelled, theirs.words)
        XCTAssertEqual(theirs.cancelCode, .user)
    }

    func testARequestOpensThePanelOverAThreadWhichNothingMovesUnderItAndDeclineCancels() throws {
        let setup = try linkedClient(inThread: true)
        let pilot = setup.pilot
        pilot.settle()
        let thread = pilot.lines
        XCTAssertTrue(thread.contains { $0.contains("comment number 30") }, thread.joined(separator: "\n"))
        let id = try setup.other.keys.verifications.request(userID: setup.userID, deviceID: setup.ourDevice)
        try drive(setup, until: "your other device asks to verify this device")
        // The feed's keys go to the panel, not the thread under it.
        pilot.press(.ctrlHome)
        pilot.press(.pageUp)
        pilot.settle()
        XCTAssertTrue(pilot.lines.contains { $0.contains("asks to verify this device") })

        pilot.press(KeyPress(.character("n")))
        try drive(setup, until: "✗ Not verified: the verification was cancelled")
        let end = Date().addingTimeInterval(5)
        while setup.other.keys.verifications.verification(id)?.stage != .cancelled, Date() < end { try setup.other.sync() }
        XCTAssertEqual(setup.other.keys.verifications.verification(id)?.cancelCode, .user, "declined there too")
        pilot.press(.escape)
        pilot.settle()
        XCTAssertEqual(pilot.lines, thread, "the thread as it was, unmoved")
    }

    func testARequestLeftUnansweredTimesOutAndThePanelSaysSo() throws {
        let setup = try linkedClient()
        let id = try setup.other.keys.verifications.request(userID: setup.userID, deviceID: setup.ourDevice)
        try drive(setup, until: "your other device asks to verify this device")
        // Eleven minutes later (the spec gives a verification ten), by our device's clock.
        let verifications = try XCTUnwrap(setup.link.sync.roomKeys?.verifications)
        verifications.clock = { Date().addingTimeInterval(11 * 60) }
        try drive(setup, until: "✗ Not verified: the verification timed out")
        let end = Date().addingTimeInterval(5)
        while setup.other.keys.verifications.verification(id)?.stage != .cancelled, Date() < end { try setup.other.sync() }
        XCTAssertEqual(setup.other.keys.verifications.verification(id)?.cancelCode, .timeout, "the other device was told")
    }

    /// Alt-V on another person's comment in a Matrix room asks them in that room (an
    /// `m.key.verification.request` message to them), as Element verifies people; their device
    /// is offered it and the panel waits for them.
    func testAltVOnAnotherPersonsCommentAsksThemInItsRoom() throws {
        let server = try self.server
        let (bo, ann, room) = try twoUsersInARoom("Verify here", on: server)
        let boDevice = try verifyingDevice(userID: bo.account.userID, deviceID: bo.account.deviceID, token: bo.account.accessToken, room: room)
        _ = try bo.other.sendText(roomID: room, body: "the room's first message")
        _ = try bo.other.sendText(roomID: room, body: "hello from Bo")
        let (account, environment, mailbox, link, ours) = try link(ann, on: server)
        let key = ThreadKey.room(account: ann.account.userID, roomID: room)
        let opener = try ThreadOpener(inBackground: false) { _, _ in
            let source = try self.open(room, as: ann, follows: false, environment: environment, usesCache: false)
            return OpenCommand.Target(source: source, me: source.reader)
        }
        let client = CommentClient(columns: 90, rows: 24, settings: CommentClient.SessionSettings(), start: try opener.openNow(key),
                                   startKey: key, summaries: [], opener: opener, mailbox: mailbox, accounts: [account.userID: link])
        client.wallTime = Date()
        let pilot = Pilot(client: client, screen: HeadlessScreen(columns: 90, rows: 24))
        let setup = Setup(pilot: pilot, ours: ours, other: boDevice, userID: account.userID, ourDevice: account.deviceID,
                          otherDevice: bo.account.deviceID, link: link)
        try drive(setup, until: "hello from Bo")

        pilot.press(KeyPress(.up, .alt))
        pilot.press(KeyPress(.character("v"), .alt))
        try drive(setup, until: "Waiting for Bo to accept")
        XCTAssertTrue(pilot.lines.contains { $0.contains(" Verify Bo (\(bo.account.userID))") }, "named as the room knows him:\n"
                      + pilot.lines.joined(separator: "\n"))
        let asked = try bo.other.messages(roomID: room).first { ($0["content"] as? [String: Any])?["msgtype"] as? String == "m.key.verification.request" }
        let content = try XCTUnwrap(asked?["content"] as? [String: Any], "a request in the room")
        XCTAssertEqual(content["to"] as? String, bo.account.userID)
        XCTAssertEqual(asked?["sender"] as? String, ann.account.userID)
        let end = Date().addingTimeInterval(10)
        while !boDevice.verifications.contains(where: { $0.userID == ann.account.userID && $0.stage == .incoming }), Date() < end {
            try boDevice.sync()
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(boDevice.verifications.contains { $0.userID == ann.account.userID && $0.stage == .incoming }, "\(boDevice.verifications)")
    }
}
