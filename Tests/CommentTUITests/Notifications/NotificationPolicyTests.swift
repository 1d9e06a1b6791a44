import XCTest
import ScrollEngine
@testable import CommentTUI

/// Which arrivals raise a desktop notification, and what it says, with time moved by the test.
final class NotificationPolicyTests: XCTestCase {
    private let room = ThreadKey.room(account: "@ann:example.org", roomID: "!design:example.org")
    private let other = ThreadKey.room(account: "@ann:example.org", roomID: "!other:example.org")

    private func arrival(_ thread: ThreadKey? = nil, text: String? = "look at this", mention: Bool = true, direct: Bool = false,
                         private isPrivate: Bool = false, onScreen: Bool = true, focused: Bool = false) -> NotificationArrival {
        NotificationArrival(thread: thread ?? room, threadName: "Design", authorName: "Bo", text: text, callsForReader: mention,
                            isDirect: direct, isPrivate: isPrivate, isOnScreen: onScreen, terminalFocused: focused)
    }

    private func at(_ seconds: Double) -> ScrollInstant { ScrollInstant(seconds: seconds) }

    func testAMentionNotifiesWhenTheReaderCannotSeeItArrive() {
        var policy = NotificationPolicy()
        XCTAssertNil(policy.decide(arrival(focused: true), at: at(0)), "on screen in a focused terminal: the reader sees it")
        XCTAssertEqual(policy.decide(arrival(focused: false), at: at(1)), NotificationText(title: "Design", body: "Bo: look at this"))
        XCTAssertEqual(policy.decide(arrival(other, onScreen: false, focused: true), at: at(1))?.title, "Design",
                       "another thread, not on screen: notifies though the terminal is focused")
    }

    func testOnlyMentionsAndDirectRoomsNotify() {
        var policy = NotificationPolicy()
        XCTAssertNil(policy.decide(arrival(mention: false), at: at(0)), "a comment for everyone in a group room")
        XCTAssertEqual(policy.decide(arrival(mention: false, direct: true, private: true), at: at(0))?.body, "new message from Bo")
    }

    func testAPrivateOrUnreadableThreadNeverGivesItsText() {
        var policy = NotificationPolicy(interval: 0)
        XCTAssertEqual(policy.decide(arrival(text: "the secret plan", private: true), at: at(0))?.body, "Bo mentioned you")
        XCTAssertEqual(policy.decide(arrival(text: nil), at: at(1))?.body, "Bo mentioned you", "encrypted: no text to give")
        XCTAssertEqual(policy.decide(arrival(text: "  \n "), at: at(2))?.body, "Bo mentioned you")
        XCTAssertEqual(policy.decide(arrival(text: "public words", direct: true), at: at(3))?.body, "Bo: public words")
    }

    func testALongTextIsCut() {
        var policy = NotificationPolicy()
        let body = policy.decide(arrival(text: String(repeating: "é", count: 500)), at: at(0))?.body
        XCTAssertEqual(body, "Bo: " + String(repeating: "é", count: NotificationPolicy.textLimit - 1) + "…")
    }

    /// A burst is one notification: again after a pause of a second, none; after a minute, one.
    func testOneNotificationPerThreadPerInterval() {
        var policy = NotificationPolicy()
        XCTAssertNotNil(policy.decide(arrival(), at: at(100)))
        XCTAssertNil(policy.decide(arrival(), at: at(100.2)), "the same burst")
        XCTAssertNil(policy.decide(arrival(), at: at(101.2)), "a second later")
        XCTAssertNotNil(policy.decide(arrival(other, onScreen: false), at: at(101.5)), "another thread has its own interval")
        XCTAssertNil(policy.decide(arrival(), at: at(104.9)), "still within five seconds")
        XCTAssertNotNil(policy.decide(arrival(), at: at(105)), "five seconds after the last")
        XCTAssertNil(policy.decide(arrival(), at: at(106)))
        XCTAssertNotNil(policy.decide(arrival(), at: at(165)), "a minute later")
    }

    /// A notification raised while the reader was in the terminal (another thread's) does not
    /// hold back the first one after they leave it.
    func testTheFirstArrivalAfterFocusIsLostCounts() {
        var policy = NotificationPolicy()
        XCTAssertNotNil(policy.decide(arrival(onScreen: false, focused: true), at: at(10)))
        policy.terminalFocusChanged(false, at: at(11))
        XCTAssertNotNil(policy.decide(arrival(onScreen: false, focused: false), at: at(12)), "first after focus was lost")
        XCTAssertNil(policy.decide(arrival(onScreen: false, focused: false), at: at(13)), "then the interval again")
        policy.terminalFocusChanged(false, at: at(14))
        XCTAssertNil(policy.decide(arrival(focused: false), at: at(15)), "a second report of the same loss changes nothing")
        policy.terminalFocusChanged(true, at: at(16))
        policy.terminalFocusChanged(false, at: at(16.5))
        XCTAssertNotNil(policy.decide(arrival(focused: false), at: at(17)), "focus came back and went again")
    }
}
