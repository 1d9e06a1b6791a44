import XCTest
import ThreadModel
import CommentTUITestSupport
@testable import CommentTUI

/// The search's bookkeeping, against a plain answer: whatever the scan has read so far, where
/// Enter goes is either not known yet or the true next match; once the scan is over it is
/// always known, and matches are numbered as a plain count says.
final class FeedSearchTests: XCTestCase {
    /// The match Enter should reach from `position`: the newest older one, else the newest of all.
    private func truth(_ matches: Set<Int>, olderThan position: Int) -> FeedSearch.Next {
        if let older = matches.filter({ $0 < position }).max() { return .match(older, wrapped: false) }
        if let newest = matches.max() { return .match(newest, wrapped: true) }
        return .none
    }

    func testWhereEnterGoesIsNeverWrongAndKnownOnceTheScanIsOver() {
        var random = SeededRandom(seed: 28)
        for _ in 0..<300 {
            let total = 1 + random.below(25)
            let matches = Set((0..<total).filter { _ in random.below(4) == 0 })
            var search = FeedSearch(query: "q")
            search.scan = FeedSearch.Scan(start: random.below(total), total: total)
            while true {
                for position in 0...(total + 1) {
                    let next = search.next(olderThan: position)
                    if next != .unknown { XCTAssertEqual(next, truth(matches, olderThan: position), "from \(position)") }
                    if search.scan!.isFinished { XCTAssertNotEqual(next, .unknown) }
                }
                guard var scan = search.scan, !scan.isFinished else { break }
                let read = scan.next
                scan.done += 1
                if matches.contains(read) { search.matches.record(read, in: scan) }
                search.scan = scan
            }
            XCTAssertEqual(search.matches.count, matches.count)
            for position in 0..<total {
                XCTAssertEqual(search.matches.count(below: position), matches.filter { $0 < position }.count)
            }
        }
    }

    /// Every position is read once, in the order: the start down to the oldest, then the
    /// newest down to just above the start.
    func testTheScanReadsEachPositionOnceInItsOrder() {
        var scan = FeedSearch.Scan(start: 2, total: 6)
        var order: [Int] = []
        while !scan.isFinished {
            XCTAssertFalse(scan.isScanned(scan.next))
            order.append(scan.next)
            scan.done += 1
        }
        XCTAssertEqual(order, [2, 1, 0, 5, 4, 3])
        XCTAssertTrue(scan.isScanned(from: 0, to: 6))
    }

    /// Comments arriving after the scan began are counted, newest of all.
    func testArrivalsAreTheNewestMatches() {
        var search = FeedSearch(query: "q")
        search.scan = FeedSearch.Scan(start: 3, total: 5, done: 5)
        search.matches.record(1, in: search.scan!)
        search.matches.record(7, in: search.scan!)
        search.matches.record(6, in: search.scan!)
        XCTAssertEqual(search.matches.arrived, [6, 7])
        XCTAssertEqual(search.next(olderThan: 1), .match(7, wrapped: true))
        XCTAssertEqual(search.next(olderThan: 7), .match(6, wrapped: false))
        XCTAssertEqual(search.matches.count(below: 7), 2)
    }

    /// A match the scan recorded that does not match when read whole is dropped for good,
    /// even when the jump then waits for the scan: it is neither counted nor gone to.
    func testAFalseMatchDroppedWhileTheScanReadsStaysDropped() {
        let pilot = ThreadFixture.numbered(10).pilot(columns: 60, rows: 16)
        pilot.press(.ctrl("s"))
        pilot.type("number 5")
        pilot.settle()
        let feed = pilot.app.feed
        XCTAssertEqual(feed.search?.matches.count, 1)
        // Enter from 9, with a scan that has read positions 9 and 8 and took 8 (which says
        // "comment number 9") for a match.
        var search = feed.search!
        search.scan = FeedSearch.Scan(start: 9, total: 10, done: 2)
        search.matches = FeedSearch.Matches(older: [8])
        search.match = 9
        feed.search = search
        _ = feed.searchNext()
        XCTAssertEqual(feed.search?.matches.count, 0, "the false match is still counted")
        pilot.settle()
        XCTAssertEqual(feed.search?.match, 4)
        XCTAssertEqual(feed.search?.matches.count, 1)
        XCTAssertTrue(pilot.lines.last!.hasSuffix(#"search "number 5": match 1 of 1 (Enter: older)"#), pilot.lines.last!)
    }
}
