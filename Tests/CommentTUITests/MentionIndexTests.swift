import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The mention list's index, built off the keys' path: once the thread is shown and when users
/// change, on the builder's thread, taken when the loop's poll sees it land.
final class MentionIndexTests: XCTestCase {
    /// 40 users whose handles start with "ma", and tess, who reads.
    static var thread: ThreadFixture {
        var users = [User(id: "me", handle: "tess", name: "Tess")]
        users += (0..<40).map { User(id: "m\($0)", handle: "ma\($0)", name: "Mara \($0)") }
        var fixture = ThreadFixture(title: "Index", users: users)
        fixture.add(Comment(id: "c1", author: "m7", created: ThreadFixture.start, body: "first"))
        return fixture
    }

    /// Waits (at most 10 s) until the index for the users now landed, as the loop's poll would
    /// see it, and lets the loop take it (one built for users since changed may wake it first).
    private func waitForIndex(_ pilot: Pilot, file: StaticString = #filePath, line: UInt = #line) throws {
        let descriptor = try XCTUnwrap(pilot.app.mentionIndexReady, "the index is built off the loop", file: file, line: line)
        let deadline = Date() + 10
        while !pilot.app.mentions.isIndexCurrent, Date() < deadline {
            guard try Poll.readable([descriptor], timeout: max(0, deadline.timeIntervalSinceNow)) == [descriptor] else { continue }
            pilot.takeUpdates()
        }
        XCTAssertTrue(pilot.app.mentions.isIndexCurrent, "the index landed and woke the poll", file: file, line: line)
    }

    func testTheIndexIsBuiltAtOpenAndTheFirstAtUsesIt() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        // A big thread's key would not wait for the index: it must be there already.
        mentions.waitsForIndexUpTo = 0
        XCTAssertTrue(pilot.client.updateDescriptors.contains(try XCTUnwrap(pilot.app.mentionIndexReady)), "the loop polls for it")
        try waitForIndex(pilot)
        XCTAssertTrue(mentions.isIndexCurrent, "built and installed on idle turns, before any @")
        pilot.type("@ma")
        let picker = try XCTUnwrap(mentions.picker)
        XCTAssertFalse(picker.awaitsIndex)
        XCTAssertEqual(picker.results.total, 40)
        // The latest writer first, then handles alphabetically; the reader is never offered.
        XCTAssertEqual(Array(picker.results.matches.prefix(3).map(\.user.handle)), ["ma7", "ma0", "ma1"])
        XCTAssertFalse(picker.results.matches.contains { $0.user.id == "me" })
    }

    func testAListOpenedBeforeTheIndexLandsSaysRankingAndFillsInWhenItLands() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        // Holds the next build back, then asks for one (users changed): none is current.
        mentions.builder.queue.suspend()
        var resumed = false
        defer { if !resumed { mentions.builder.queue.resume() } }
        mentions.usersChanged()
        pilot.type("@ma")
        let picker = try XCTUnwrap(mentions.picker, "the list opens at once")
        XCTAssertTrue(picker.awaitsIndex)
        XCTAssertEqual(picker.query, "ma")
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("─ @ma · ranking users… · Esc closes") }, pilot.lines.joined(separator: "\n"))
        mentions.builder.queue.resume()
        resumed = true
        try waitForIndex(pilot)
        XCTAssertTrue(mentions.isIndexCurrent)
        let filled = try XCTUnwrap(mentions.picker)
        XCTAssertFalse(filled.awaitsIndex)
        XCTAssertEqual(filled.query, "ma")
        XCTAssertEqual(filled.results.total, 40)
        XCTAssertEqual(filled.highlightedUser?.handle, "ma7")
        XCTAssertTrue(pilot.lines.contains { $0.hasPrefix("─ @ma · 40 users") }, pilot.lines.joined(separator: "\n"))
    }

    func testTabOnAListStillRankingWaitsForTheIndexAndInsertsTheBest() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        mentions.builder.queue.suspend()
        mentions.usersChanged()
        pilot.type("@ma1")
        XCTAssertEqual(mentions.picker?.awaitsIndex, true)
        mentions.builder.queue.resume()
        pilot.press(KeyPress(.tab))
        XCTAssertEqual(pilot.app.draft, "@ma1 ")
        XCTAssertFalse(pilot.app.isMentionListOpen)
    }

    func testUsersChangedMidBuildDropTheStaleIndexAndTheNewOneIsInstalled() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        // The open's build landed, not taken yet; then a user joins while the next is held back.
        mentions.builder.waitForBuilds()
        mentions.builder.queue.suspend()
        var resumed = false
        defer { if !resumed { mentions.builder.queue.resume() } }
        pilot.app.receive([.usersChanged([User(id: "n1", handle: "mango", name: "Mango Newcomer")])])
        XCTAssertEqual(mentions.generation, 1)
        pilot.takeUpdates()
        XCTAssertFalse(mentions.isIndexCurrent, "the index built for the users before is not installed")
        XCTAssertEqual(mentions.indexGeneration, -1)
        // A second change while the first is still held back: only the newest is built.
        pilot.app.receive([.usersChanged([User(id: "n2", handle: "mallow", name: "Mallow Newcomer")])])
        mentions.builder.queue.resume()
        resumed = true
        try waitForIndex(pilot)
        XCTAssertEqual(mentions.indexGeneration, 2)
        XCTAssertTrue(mentions.isIndexCurrent)
        pilot.type("@mal")
        XCTAssertEqual(mentions.picker?.results.matches.map(\.user.handle), ["mallow"])
        pilot.press(KeyPress(.escape))
        pilot.type(" @man")
        // Mallow's name has m, a, n in order: a fuzzy match after the handle's prefix.
        XCTAssertEqual(mentions.picker?.results.matches.map(\.user.handle), ["mango", "mallow"])
    }

    func testABigThreadKeepsRankingWithTheIndexBeforeUntilTheNewOneLands() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        try waitForIndex(pilot)
        mentions.builder.queue.suspend()
        var resumed = false
        defer { if !resumed { mentions.builder.queue.resume() } }
        pilot.app.receive([.usersChanged([User(id: "n1", handle: "mango", name: "Mango Newcomer")])])
        pilot.type("@man")
        // The list opens with the index before: no one yet, but no wait either.
        XCTAssertEqual(mentions.picker?.awaitsIndex, false)
        XCTAssertEqual(mentions.picker?.results.total, 0)
        XCTAssertTrue(mentions.pickerAwaitsIndex)
        mentions.builder.queue.resume()
        resumed = true
        try waitForIndex(pilot)
        XCTAssertEqual(mentions.picker?.results.matches.map(\.user.handle), ["mango"], "ranked again when it landed")
    }

    func testASmallThreadWaitsForItsIndexOnTheFirstKey() throws {
        let (app, _) = Self.thread.open(columns: 60, rows: 20)
        // No frame drawn yet, no turn of the loop: the key starts the build and waits for it.
        _ = app.update(.key(KeyPress(.character("@"))))
        XCTAssertTrue(app.mentions.isIndexCurrent)
        XCTAssertEqual(app.mentions.picker?.awaitsIndex, false)
        XCTAssertEqual(app.mentions.picker?.results.total, 40)
    }
}
