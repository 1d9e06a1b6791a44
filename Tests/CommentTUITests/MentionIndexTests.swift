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

    /// As if the thread opened a moment ago: the open's index not landed (it is let go here) and
    /// the next build held back on the suspended queue, so there is no index at all.
    private func holdBackEveryIndex(_ mentions: MentionList) {
        mentions.builder.waitForBuilds()
        _ = mentions.builder.take()
        mentions.builder.queue.suspend()
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
        // Then a build asked for (users changed): none is current.
        holdBackEveryIndex(mentions)
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
        holdBackEveryIndex(mentions)
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
        // The index built for the users before is nearer than none: the list ranks with it meanwhile.
        XCTAssertFalse(mentions.isIndexCurrent)
        XCTAssertEqual(mentions.indexGeneration, 0)
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

    func testTabOnAListRankedWithTheIndexBeforeWaitsForTheCurrentOne() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        try waitForIndex(pilot)
        mentions.builder.queue.suspend()
        pilot.app.receive([.usersChanged([User(id: "n1", handle: "mango", name: "Mango Newcomer")])])
        pilot.type("@man")
        XCTAssertEqual(mentions.picker?.results.total, 0, "ranked with the index before: no newcomer yet")
        mentions.builder.queue.resume()
        // Tab does not close an empty list and swallow the key: it waits for the newcomer's index.
        pilot.press(KeyPress(.tab))
        XCTAssertEqual(pilot.app.draft, "@mango ")
        XCTAssertTrue(mentions.isIndexCurrent)
    }

    func testUsersChangingFasterThanABuildStillGetAnIndexInstalled() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        try waitForIndex(pilot)
        // A build lands for users that changed again before the loop took it, and again: each
        // landing is newer than the index installed, so the list never stops at none or the first.
        for n in 1...3 {
            mentions.builder.queue.suspend()
            pilot.app.receive([.usersChanged([User(id: "n\(n)", handle: "mango\(n)", name: "Newcomer \(n)")])])
            mentions.builder.queue.resume()
            mentions.builder.waitForBuilds()
            mentions.builder.queue.suspend()
            pilot.app.receive([.usersChanged([User(id: "x\(n)", handle: "xeno\(n)", name: "Late \(n)")])])
            pilot.takeUpdates()
            XCTAssertEqual(mentions.indexGeneration, mentions.generation - 1, "round \(n)")
            XCTAssertFalse(mentions.isIndexCurrent)
            pilot.type(n == 1 ? "@mango\(n)" : " @mango\(n)")
            XCTAssertEqual(mentions.picker?.results.matches.first?.user.handle, "mango\(n)", "round \(n)")
            XCTAssertTrue(mentions.pickerAwaitsIndex)
            pilot.press(KeyPress(.escape))
            mentions.builder.queue.resume()
            try waitForIndex(pilot)
        }
    }

    func testAnIndexLandingUnderTheListKeepsTheHighlightedUser() throws {
        let pilot = Self.thread.pilot(columns: 60, rows: 20)
        let mentions = pilot.app.mentions
        mentions.waitsForIndexUpTo = 0
        try waitForIndex(pilot)
        pilot.type("@ma")
        pilot.press(KeyPress(.down))
        pilot.press(KeyPress(.down))
        let chosen = try XCTUnwrap(mentions.picker?.highlightedUser)
        XCTAssertEqual(chosen.handle, "ma1")
        // A user joins whose handle ranks first: the list ranks again, the choice stays.
        pilot.app.receive([.usersChanged([User(id: "n1", handle: "ma", name: "Ma Newcomer")])])
        try waitForIndex(pilot)
        XCTAssertEqual(mentions.picker?.results.matches.first?.user.handle, "ma", "ranked again with the newcomer")
        XCTAssertEqual(mentions.picker?.highlightedUser, chosen)
        pilot.press(KeyPress(.tab))
        XCTAssertEqual(pilot.app.draft, "@ma1 ")
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
