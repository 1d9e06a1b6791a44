import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A gap filled, and older pages read, from a server whose `/messages` pages lead back to a
/// token already asked from: Synapse behind a front that rewrites the pages' `end`. (The paging
/// without a server: GapFillTests, OlderPagesWalkTests; with Synapse as it is: MatrixRoomTests.)
final class MatrixGapLoopTests: SharedSynapseTestCase {
    private var fronts: [ScriptedHomeserver] = []

    override func tearDown() {
        fronts.forEach { $0.stop() }
        fronts = []
        super.tearDown()
    }

    /// A gap page is a backwards `/messages` without a filter (older pages and the opening's have one).
    private static func isGapPage(_ request: ScriptedHomeserver.Request) -> Bool {
        request.path.hasSuffix("/messages") && request.target.contains("dir=b") && !request.target.contains("filter=")
    }

    /// An older page is a backwards `/messages` with the lazy-loading filter.
    private static func isOlderPage(_ request: ScriptedHomeserver.Request) -> Bool {
        request.path.hasSuffix("/messages") && request.target.contains("dir=b") && request.target.contains("filter=")
    }

    /// The token a page was asked from.
    private static func from(_ request: ScriptedHomeserver.Request) -> String? {
        URLComponents(string: request.target)?.queryItems?.first(where: { $0.name == "from" })?.value
    }

    /// The answer with its `end` set to `end`, by default the request's `from`.
    private static func looping(_ answer: String, asked request: ScriptedHomeserver.Request, end: String? = nil) -> String {
        guard let end = end ?? from(request),
              var page = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else { return answer }
        page["end"] = end
        return (try? JSONSerialization.data(withJSONObject: page)).map { String(decoding: $0, as: UTF8.self) } ?? answer
    }

    /// The token the first older page was asked from, shared with the front's threads.
    private final class FirstToken: @unchecked Sendable {
        private let lock = NSLock()
        private var token: String?
        /// The first token given (`token` itself, the first time).
        func first(_ token: String) -> String { lock.withLock { self.token = self.token ?? token; return self.token! } }
    }

    func testAGapPageLeadingBackWhereItWasAskedFromClosesTheGapWithWhatItGave() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Looping gap", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "before the gap")
        let upstream = server.baseURL
        let front = try ScriptedHomeserver { request in
            .forwarded(request, to: upstream) { Self.isGapPage(request) ? Self.looping($0, asked: request) : $0 }
        }
        fronts.append(front)
        var throughFront = ann
        throughFront.client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let source = try open(room, as: throughFront, follows: false)
        defer { source.stop() }
        // More than a sync's page and the page read back at once: a gap, were the server to be believed.
        let count = MatrixAccountFilter.timelineLimit + MatrixThreadSource.gapPageSize + 60
        for n in 1...count { try bo.other.sendText(roomID: room, body: "gap \(n)") }
        source.startSyncing()
        let updates = try collectUpdates(from: source, timeout: 30) { $0.flatMap(\.appended).count >= count - 60 }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), (61...count).map { "gap \($0)" }, "the newest, in order")
        // Left open, the gap would be asked for from the same token each time the reader came near it.
        XCTAssertFalse(updates.contains { if case .gap = $0 { true } else { false } }, "closed: the server gives nothing before it")
        XCTAssertEqual(front.requests.filter(Self.isGapPage).count, 1, "one page asked for")
    }

    func testOlderPagesLeadingBackToATokenAskedBeforeEndAtTheRoomsStartAndTheFeedStopsAsking() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Looping history", on: server)
        for n in 1...160 { try bo.other.sendText(roomID: room, body: "message \(n)") }
        let upstream = server.baseURL
        // The first older page is Synapse's; each after it leads back to where the first was asked.
        let first = FirstToken()
        let front = try ScriptedHomeserver { request in
            .forwarded(request, to: upstream) { answer in
                guard Self.isOlderPage(request), let from = Self.from(request) else { return answer }
                let start = first.first(from)
                return from == start ? answer : Self.looping(answer, asked: request, end: start)
            }
        }
        fronts.append(front)
        var throughFront = ann
        throughFront.client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let source = try open(room, as: throughFront, follows: false)
        defer { source.stop() }
        XCTAssertTrue(source.hasOlderComments)
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        // At the top, the feed asks for older comments for as long as the source says there are.
        for _ in 0..<4 where app.hasOlderComments {
            _ = pilot.press(.ctrlHome)
            pilot.settle()
            app.receive(try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } })
        }
        XCTAssertFalse(source.hasOlderComments, "the page leading back is the room's start")
        XCTAssertFalse(app.hasOlderComments, "the feed stops asking")
        XCTAssertEqual(front.requests.filter(Self.isOlderPage).count, 2, "each page asked for once")
        // Staying at the top asks for nothing more.
        for _ in 0..<3 {
            _ = pilot.press(.ctrlHome)
            pilot.settle()
        }
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(source.takeUpdates().filter { if case .olderComments = $0 { true } else { false } }.count, 0)
        XCTAssertEqual(front.requests.filter(Self.isOlderPage).count, 2)
    }
}
