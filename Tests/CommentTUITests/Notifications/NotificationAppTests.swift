import Foundation
import XCTest
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Notifications as the app raises them: focus reports read from the terminal's bytes, a
/// mention arriving while the terminal is away, the escape on the next frame and only on it.
final class NotificationAppTests: XCTestCase {
    private func opened(style: TerminalNotification.Style = .osc777, notifies: Bool = true,
                        thread: NotificationThread = NotificationThread(key: .file(path: "/t.jsonl"), isPrivate: false))
        throws -> (Pilot, QueuedThreadSource) {
        let source = try QueuedThreadSource(thread: ThreadFixture(title: "Design", users: [ThreadFixture.ann, ThreadFixture.bo]).thread)
        let app = CommentApp(source: source, me: ThreadFixture.ann, columns: 60, rows: 16)
        app.wallTime = ThreadFixture.now
        if notifies { app.notifications = DesktopNotifications(style: style) }
        app.notificationThread = thread
        return (Pilot(app: app, screen: HeadlessScreen(columns: 60, rows: 16)), source)
    }

    private var count = 0
    /// A comment from Bo arrives and a frame is shown; returns the escapes that frame carried.
    private func arrive(_ body: String, _ pilot: Pilot, _ source: QueuedThreadSource) -> [String] {
        count += 1
        let before = pilot.screen.notifications.count
        source.deliver(.commentsAppended([Comment(id: "c\(count)", author: ThreadFixture.bo.id, created: ThreadFixture.now, body: body)]))
        pilot.app.sourceIsReady(at: pilot.time)
        pilot.draw()
        return pilot.screen.notifications.dropFirst(before).map { String(decoding: $0, as: UTF8.self) }
    }

    func testAMentionWhileTheTerminalIsAwayNotifiesOnce() throws {
        let (pilot, source) = try opened()
        XCTAssertEqual(arrive("hey @ann", pilot, source), [], "focused, on screen: the reader sees it")
        pilot.feed("\u{1B}[O")
        XCTAssertFalse(pilot.app.terminalFocused)
        XCTAssertEqual(arrive("plain words", pilot, source), [], "not for the reader")
        XCTAssertEqual(arrive("@ann the ||ending|| is *good*", pilot, source),
                       ["\u{1B}]777;notify;Design;Bo 日本: @ann the ░░░░░░ is good\u{1B}\\"])
        pilot.draw()
        XCTAssertEqual(pilot.screen.notifications.count, 1, "the next frame carries none")
        pilot.advance(by: 1)
        XCTAssertEqual(arrive("@ann again", pilot, source), [], "a second later: within the interval")
        pilot.advance(by: 60)
        XCTAssertEqual(arrive("@ann a minute later", pilot, source).count, 1)
        pilot.feed("\u{1B}[I")
        XCTAssertTrue(pilot.app.terminalFocused)
        pilot.advance(by: 60)
        XCTAssertEqual(arrive("@ann back", pilot, source), [], "focused again")
    }

    func testAPrivateThreadsNotificationHasNoText() throws {
        let (pilot, source) = try opened(thread: NotificationThread(key: .room(account: "@ann:x", roomID: "!r:x")))
        pilot.feed("\u{1B}[O")
        XCTAssertEqual(arrive("@ann the secret plan", pilot, source), ["\u{1B}]777;notify;Design;Bo 日本 mentioned you\u{1B}\\"])
    }

    func testOffRaisesNothingAndTheBellStyleRingsOnce() throws {
        let (off, offSource) = try opened(notifies: false)
        off.feed("\u{1B}[O")
        XCTAssertEqual(arrive("@ann hi", off, offSource), [])
        XCTAssertEqual(off.screen.bellCount, 1, "the mention's bell rings as before")
        let (bell, bellSource) = try opened(style: .bell)
        bell.feed("\u{1B}[O")
        XCTAssertEqual(arrive("@ann hi", bell, bellSource), [])
        XCTAssertEqual(bell.screen.bellCount, 1, "one bell, not two")
    }

    func testHostileWordsReachNoFrameAsControls() throws {
        let (pilot, source) = try opened(style: .osc9)
        pilot.feed("\u{1B}[O")
        let sent = arrive("@ann \u{1B}]0;owned\u{07}\u{9C};x\u{1B}\\ \u{202E}evil", pilot, source)
        XCTAssertEqual(sent.count, 1)
        let inner = try XCTUnwrap(sent.first).dropFirst(4).dropLast(2)
        XCTAssertFalse(inner.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == ";" || $0 == "\u{202E}" },
                       String(inner))
    }
}
