import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// What the status bar says of the connection to a real Synapse: a server of its own, since
/// these tests stop and start it.
final class MatrixStatusBarTests: OwnSynapseTestCase {
    /// Takes the source's updates into the app as the loop does, a frame after each, until the
    /// status bar (the last row) satisfies `done` or `timeout` seconds pass; returns the bar.
    @discardableResult
    private func waitForBar(_ pilot: Pilot, source: MatrixThreadSource, timeout: Double,
                            until done: (String) -> Bool) throws -> (bar: String, seconds: Double) {
        let start = Date()
        while true {
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 0.05) }
            pilot.app.sourceIsReady()
            pilot.draw()
            let bar = pilot.lines.last ?? ""
            let seconds = Date().timeIntervalSince(start)
            if done(bar) || seconds > timeout { return (bar, seconds) }
        }
    }

    func testAnOfflineCachedOpenSaysSoWithinASecondWhateverTheNameAndHandle() throws {
        // The longest handle a localpart gives (35), and a room name longer than the row.
        let ann = try registerUser("ann-whose-localpart-goes-on-and-on", on: server)
        let name = "The quarterly planning of the north-eastern regional office, with every team in it"
        let room = try ann.other.createRoom(name: name, preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "the post")
        // More than a page: the older history is asked for at once, and fails.
        for n in 1...55 { try ann.other.sendText(roomID: room, body: "comment \(n)") }
        let environment = temporaryDataEnvironment()
        try open(room, as: ann, follows: false, environment: environment).stop()

        server.stop()
        let offline = try open(room, as: ann, environment: environment)
        defer { offline.stop() }
        let pilot = pilot(offline, columns: 100)
        XCTAssertGreaterThan(DisplayWidth.width(of: "@" + offline.reader.handle + " · " + offline.label), 100, "the test's point")
        // The state as a whole word (`offline…` or `connect…` say neither), within a second.
        let (bar, seconds) = try waitForBar(pilot, source: offline, timeout: 5, until: Self.saysState)
        XCTAssertTrue(Self.saysState(bar), "the bar: \(bar)")
        XCTAssertLessThan(seconds, 1, "the bar: \(bar)")
        // The failed page of older comments says so at length: the state still shows whole.
        let failed = try waitForBar(pilot, source: offline, timeout: 10) { $0.contains("could not load older comments") }
        XCTAssertTrue(failed.bar.contains("could not load older comments") && Self.saysState(failed.bar), "the bar: \(failed.bar)")
    }

    func testAQuietRoomOpenedFromItsCacheIsLiveOnceTheFirstSyncAnswers() throws {
        let (bo, ann, room) = try twoUsersInARoom("Quiet", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        try bo.other.sendText(roomID: room, body: "and nothing since")
        let environment = temporaryDataEnvironment()
        try open(room, as: ann, follows: false, environment: environment).stop()
        // Nobody writes: a long poll would not answer for 30 s, a sync that asks for no wait at once.
        let cached = try open(room, as: ann, environment: environment)
        defer { cached.stop() }
        let pilot = pilot(cached, columns: 100)
        let (bar, seconds) = try waitForBar(pilot, source: cached, timeout: 40) { $0.split(separator: " ").contains("live") }
        XCTAssertTrue(bar.split(separator: " ").contains("live"), "the bar: \(bar)")
        XCTAssertLessThan(seconds, 5, "live once the server answered, not once a long poll returned: \(bar)")
    }

    func testACommentThatGoesThroughAfterARestartMakesTheBarLive() throws {
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Restart", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "the post")
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let pilot = pilot(source, columns: 100)
        server.stop()
        // Backed off far: the sync's next try is 16 s away.
        let away = try waitForBar(pilot, source: source, timeout: 40) { $0.contains("offline — retrying in 16 s") }
        XCTAssertTrue(away.bar.contains("offline — retrying in 16 s"), "the bar: \(away.bar)")
        try server.start()
        pilot.type("back again\n")
        let posted = try waitForBar(pilot, source: source, timeout: 30) { $0.contains("posted") }
        XCTAssertTrue(posted.bar.contains("posted"), "the bar: \(posted.bar)")
        XCTAssertTrue(posted.bar.split(separator: " ").contains("live"), "a send that went through proves the connection: \(posted.bar)")
        XCTAssertEqual(try ann.other.messageBodies(roomID: room).filter { $0 == "back again" }.count, 1)
    }

    /// Whether a status bar says `offline` or `connecting` as a whole word.
    private static func saysState(_ bar: String) -> Bool {
        bar.split(separator: " ").contains { $0 == "offline" || $0 == "connecting" }
    }
}
