import XCTest
@testable import CommentTUI
import ThreadModel

/// Filling a gap as a state machine: which `/messages` page it asks for next and what it found,
/// fed pages by the test with no server.
final class GapFillTests: XCTestCase {
    /// An event with this id.
    private func event(_ id: String) -> JSONValue { ["event_id": .string(id), "type": "m.room.message"] }

    /// Events with these ids, in the order given (a backwards page: newest first).
    private func events(_ ids: String...) -> [JSONValue] { ids.map(event) }

    /// The ids of the events found, oldest first.
    private func missing(_ fill: GapFill) -> [String] { fill.missing.compactMap { $0["event_id"]?.string } }

    func testOnePageReachingTheTimelineClosesTheGapWithTheNewerEventsOldestFirst() {
        var fill = GapFill(before: "t0", pages: 1)
        XCTAssertEqual(fill.request, .init(from: "t0", limit: MatrixThreadSource.gapPageSize))
        fill.answered(events: events("$5", "$4", "$3", "$2"), end: "t1", known: ["$3", "$2"])
        XCTAssertTrue(fill.isDone)
        XCTAssertNil(fill.rest, "closed: what is older than a known event is had")
        XCTAssertEqual(missing(fill), ["$4", "$5"])
    }

    func testTheLastPageAllowedLeavesTheGapOpenWhereItStopped() {
        var fill = GapFill(before: "t0", pages: 1, pageSize: 2)
        XCTAssertEqual(fill.request?.limit, 2)
        fill.answered(events: events("$9", "$8"), end: "t1", known: [])
        XCTAssertTrue(fill.isDone, "one page at sync time")
        XCTAssertEqual(fill.rest, "t1", "the rest is missing from there")
        XCTAssertEqual(missing(fill), ["$8", "$9"])
    }

    func testPagesAreReadBackFromEachEndUntilTheRoomsStart() {
        var fill = GapFill(before: "t0", pages: MatrixThreadSource.gapPagesPerFill, pageSize: 2)
        fill.answered(events: events("$9", "$8"), end: "t1", known: [])
        XCTAssertEqual(fill.request, .init(from: "t1", limit: 2))
        XCTAssertEqual(fill.rest, "t1")
        fill.answered(events: events("$7", "$6"), end: "t2", known: [])
        XCTAssertEqual(fill.request, .init(from: "t2", limit: 2))
        // No `end`: the room's start, nothing more is missing.
        fill.answered(events: events("$5"), end: nil, known: [])
        XCTAssertTrue(fill.isDone)
        XCTAssertNil(fill.rest)
        XCTAssertEqual(missing(fill), ["$5", "$6", "$7", "$8", "$9"])
    }

    func testAFillStopsAfterItsPagesAndTheNextStartsWhereItLeftOff() throws {
        var fill = GapFill(before: "t0", pages: 3, pageSize: 1)
        for n in 1...3 {
            XCTAssertEqual(fill.request?.from, "t\(n - 1)")
            fill.answered(events: events("$\(100 - n)"), end: "t\(n)", known: [])
        }
        XCTAssertTrue(fill.isDone)
        XCTAssertEqual(fill.rest, "t3")
        var next = GapFill(before: try XCTUnwrap(fill.rest), pages: 3, pageSize: 1)
        XCTAssertEqual(next.request?.from, "t3")
        next.answered(events: events("$96", "$95"), end: "t4", known: ["$95"])
        XCTAssertNil(next.rest)
        XCTAssertEqual(missing(next), ["$96"])
    }

    func testAnEmptyPageWithAnEndReadsOnFromItAndWithoutOneIsTheRoomsStart() {
        // A server may leave out events it hides and still say where the page before starts.
        var fill = GapFill(before: "t0", pages: 2)
        fill.answered(events: [], end: "t1", known: [])
        XCTAssertEqual(fill.request?.from, "t1")
        fill.answered(events: [], end: "t2", known: [])
        XCTAssertTrue(fill.isDone)
        XCTAssertEqual(fill.rest, "t2", "still open: nothing said the missing events ended")
        XCTAssertEqual(missing(fill), [])

        var atStart = GapFill(before: "t0", pages: 2)
        atStart.answered(events: [], end: nil, known: [])
        XCTAssertTrue(atStart.isDone)
        XCTAssertNil(atStart.rest)
    }

    func testAKnownEventInTheMiddleOfALaterPageClosesTheGapThere() {
        var fill = GapFill(before: "t0", pages: 5)
        fill.answered(events: events("$9", "$8"), end: "t1", known: [])
        fill.answered(events: events("$7", "$6", "$5", "$4"), end: "t2", known: ["$5"])
        XCTAssertTrue(fill.isDone, "no page asked from t2")
        XCTAssertNil(fill.rest)
        XCTAssertEqual(missing(fill), ["$6", "$7", "$8", "$9"], "$4 is older than what is had: left out")
    }

    func testAnEventGivenTwiceIsTakenOnceAtItsNewestPlace() {
        var fill = GapFill(before: "t0", pages: 5)
        fill.answered(events: events("$9", "$8", "$9"), end: "t1", known: [])
        fill.answered(events: events("$8", "$7"), end: nil, known: [])
        XCTAssertEqual(missing(fill), ["$7", "$8", "$9"])
    }

    func testAServerGivingBackTheTokenItWasAskedFromEndsTheFillClosed() {
        // An older Synapse said the room's start so; from a hostile server, a gap left open would
        // be asked for again and again as long as the reader stays near it.
        var fill = GapFill(before: "t0", pages: MatrixThreadSource.gapPagesPerFill)
        var asked: [String] = []
        while let request = fill.request {
            asked.append(request.from)
            fill.answered(events: events("$9"), end: request.from, known: [])
        }
        XCTAssertEqual(asked, ["t0"], "one page, not the same page again")
        XCTAssertNil(fill.rest, "closed: the server gives nothing before it")
        XCTAssertEqual(missing(fill), ["$9"])
    }

    func testAServerLeadingBackToATokenAskedBeforeEndsTheFillClosed() {
        var fill = GapFill(before: "t0", pages: MatrixThreadSource.gapPagesPerFill)
        fill.answered(events: events("$9"), end: "t1", known: [])
        fill.answered(events: events("$8"), end: "t2", known: [])
        fill.answered(events: events("$9"), end: "t1", known: [])
        XCTAssertTrue(fill.isDone)
        XCTAssertNil(fill.rest)
        XCTAssertEqual(missing(fill), ["$8", "$9"])
    }

    func testALaterFillOfTheGapReadsOnWhereTheLastStopped() throws {
        var fill = GapFill(before: "t0", pages: 1, pageSize: 2)
        fill.answered(events: events("$9", "$8"), end: "t1", known: [])
        var next = try XCTUnwrap(fill.resumed(pages: 3))
        XCTAssertEqual(next.request, .init(from: "t1", limit: 2), "where the gap was left open, pages as large")
        XCTAssertEqual(next.missing.count, 0, "the first fill's events were applied with it")
        next.answered(events: events("$7"), end: nil, known: [])
        XCTAssertNil(next.rest)
        XCTAssertEqual(missing(next), ["$7"])
        XCTAssertNil(next.resumed(pages: 3), "closed: no fill follows")
    }

    func testALaterFillLeadingBackToATokenAnEarlierFillAskedClosesTheGap() throws {
        // Each fill as the reader nears the gap: left open, the pages would go round for ever.
        var first = GapFill(before: "t0", pages: 1)
        first.answered(events: events("$9"), end: "t1", known: [])
        XCTAssertEqual(first.rest, "t1")
        var second = try XCTUnwrap(first.resumed(pages: MatrixThreadSource.gapPagesPerFill))
        XCTAssertEqual(second.request?.from, "t1")
        second.answered(events: events("$8"), end: "t0", known: [])
        XCTAssertTrue(second.isDone, "nothing asked from t0 again")
        XCTAssertNil(second.rest, "closed with what came")
        XCTAssertEqual(missing(second), ["$8"])
    }

    func testAnAnswerWhenNothingWasAskedChangesNothing() {
        var fill = GapFill(before: "t0", pages: 1)
        fill.answered(events: events("$9"), end: nil, known: [])
        let done = fill
        fill.answered(events: events("$1"), end: "t5", known: [])
        XCTAssertEqual(fill, done)
        XCTAssertEqual(GapFill(before: "t0", pages: 0).request, nil, "no pages: nothing asked")
    }
}
