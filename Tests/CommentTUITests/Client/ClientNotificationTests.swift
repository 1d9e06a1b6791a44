@testable import CommentTUI
import CommentTUITestSupport
import ThreadModel
import XCTest

/// Notifications of threads off screen: a mention in a thread the reader is not looking at
/// notifies with the frame on screen, though the terminal has the focus; the thread on screen
/// does not while the terminal has it; at most one per thread within the policy's interval.
final class ClientNotificationTests: XCTestCase {
    private func mention(_ id: String, seconds: Double) -> ThreadUpdate {
        .commentsAppended([Comment(id: id, author: ThreadFixture.bo.id, created: ThreadFixture.now.addingTimeInterval(seconds),
                                   body: "@ann the ||secret|| plan")])
    }

    private func notificationTexts(_ pilot: Pilot) -> [String] {
        pilot.screen.notifications.map { String(decoding: $0, as: UTF8.self) }
    }

    func testAMentionOffScreenNotifiesThroughTheFrameOnScreenOncePerInterval() throws {
        let fixture = try ClientFixture(titles: ["Alpha thread", "Beta thread"],
                                        notifications: DesktopNotifications(style: .osc777))
        let pilot = fixture.pilot
        fixture.switchTo("Beta")
        fixture.switchTo("Alpha")
        pilot.idle(for: 60)
        // On screen, with the focus: no notification.
        fixture.source("Alpha thread")?.deliver(mention("a1", seconds: 60))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot), [])
        // Off screen: one, named by the thread and the author, its spoiler masked.
        fixture.source("Beta thread")?.deliver(mention("b1", seconds: 61))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot).count, 1)
        let text = try XCTUnwrap(notificationTexts(pilot).first)
        XCTAssertTrue(text.contains("Beta thread"), text)
        XCTAssertTrue(text.contains("Bo"), text)
        XCTAssertFalse(text.contains("secret"), text)
        // A second a second later: none; one a minute later: another.
        pilot.idle(for: 1)
        fixture.source("Beta thread")?.deliver(mention("b2", seconds: 62))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot).count, 1)
        pilot.idle(for: 60)
        fixture.source("Beta thread")?.deliver(mention("b3", seconds: 122))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot).count, 2)
    }

    func testCountsThatComeAfterHomesFirstWindowAreNoNewsButLaterMentionsAre() throws {
        let fixture = try ClientFixture(titles: ["Alpha thread"], notifications: DesktopNotifications(style: .osc777))
        let pilot = fixture.pilot
        let mailbox = try XCTUnwrap(pilot.client.mailbox)
        let account = "@ann:a.org"
        var row = ThreadSummary(key: .room(account: account, roomID: "!lobby:a.org"), name: "Lobby", preview: "hi @ann",
                                author: "Bo", activity: ThreadFixture.now)
        // The first window: the row without its counts, then the whole list with them.
        row.countsPending = true
        mailbox.post(.summaries(account: account, [row]))
        mailbox.post(.roomsComing(account: account, count: 40))
        pilot.takeUpdates()
        row.countsPending = false
        (row.unread, row.highlights) = (3, 1)
        pilot.idle(for: 1)
        mailbox.post(.summaries(account: account, [row]))
        mailbox.post(.roomsComing(account: account, count: nil))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot), [], "a mention from before the start is no news")
        // A mention that arrives a minute later is.
        pilot.idle(for: 60)
        (row.unread, row.highlights, row.activity) = (4, 2, ThreadFixture.now.addingTimeInterval(61))
        mailbox.post(.summaries(account: account, [row]))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot).count, 1)
    }

    func testTheThreadOnScreenNotifiesOnceTheTerminalLosesTheFocus() throws {
        let fixture = try ClientFixture(titles: ["Alpha thread", "Beta thread"],
                                        notifications: DesktopNotifications(style: .osc777))
        let pilot = fixture.pilot
        pilot.feed("\u{1B}[O")
        pilot.idle(for: 1)
        fixture.source("Alpha thread")?.deliver(mention("a1", seconds: 60))
        pilot.takeUpdates()
        XCTAssertEqual(notificationTexts(pilot).count, 1)
        XCTAssertTrue(notificationTexts(pilot)[0].contains("Alpha thread"))
    }

    /// Two threads off screen calling for the reader between two frames: both notifications
    /// leave with the next frame, and kitty's ids tell them apart (each thread holds a copy of
    /// the notifications; the count is shared).
    func testMentionsInTwoThreadsOffScreenBothLeaveWithDistinctIDs() throws {
        let fixture = try ClientFixture(titles: ["Alpha thread", "Beta thread", "Gamma thread"],
                                        notifications: DesktopNotifications(style: .osc99))
        let pilot = fixture.pilot
        fixture.switchTo("Beta")
        fixture.switchTo("Gamma")
        fixture.switchTo("Alpha")
        pilot.idle(for: 1)
        fixture.source("Beta thread")?.deliver(mention("b1", seconds: 60))
        fixture.source("Gamma thread")?.deliver(mention("g1", seconds: 60))
        pilot.takeUpdates()
        let sent = notificationTexts(pilot).joined()
        XCTAssertTrue(sent.contains("Beta thread") && sent.contains("Gamma thread"), sent)
        let ids = Set(sent.components(separatedBy: "\u{1B}]99;").dropFirst().compactMap { $0.split(separator: ":").first })
        XCTAssertEqual(ids, ["i=1", "i=2"], sent)
    }
}
