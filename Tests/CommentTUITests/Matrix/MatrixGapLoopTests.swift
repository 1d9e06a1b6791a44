import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A gap filled from a server whose `/messages` pages lead back where they were asked from:
/// Synapse behind a front that rewrites each gap page's `end` to its `from`. (The gap's paging
/// without a server: GapFillTests; with Synapse as it is: MatrixRoomTests.)
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

    /// The answer with its `end` set to the request's `from`.
    private static func looping(_ answer: String, asked request: ScriptedHomeserver.Request) -> String {
        guard let from = URLComponents(string: request.target)?.queryItems?.first(where: { $0.name == "from" })?.value,
              var page = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any] else { return answer }
        page["end"] = from
        return (try? JSONSerialization.data(withJSONObject: page)).map { String(decoding: $0, as: UTF8.self) } ?? answer
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
}
