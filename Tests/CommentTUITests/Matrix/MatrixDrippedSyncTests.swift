import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A sync whose answer trickles in a few bytes a second (through a relay to the real Synapse):
/// the status bar leaves `live` for `stalled` once the long poll is overdue, the whole answer
/// has a deadline (bytes that keep coming do not extend it), and the room goes live again once
/// the server answers at speed.
final class MatrixDrippedSyncTests: SharedSynapseTestCase {
    /// Ann's room `name` with Bo's post, opened unfollowed through a relay the test drips or cuts.
    private func openThroughARelay(_ name: String) throws -> (bo: MatrixTestUser, ann: MatrixTestUser, room: String, relay: TCPRelay, source: MatrixThreadSource) {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom(name, on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let relay = try TCPRelay(to: XCTUnwrap(server.port))
        var throughRelay = ann
        throughRelay.client = MatrixClient(homeserver: relay.baseURL, accessToken: ann.account.accessToken)
        do {
            return (bo, ann, room, relay, try open(room, as: throughRelay, follows: false, usesCache: false))
        } catch {
            relay.stop()
            throw error
        }
    }

    func testADrippedSyncSaysStalledEndsAtItsDeadlineAndGoesLiveWhenTheServerIsBack() throws {
        let (bo, _, room, relay, source) = try openThroughARelay("Dripped")
        defer { relay.stop() }
        defer { source.stop() }
        // Shorter than the defaults (15 s and 30 s), the same order: stalled well before the deadline.
        source.syncStallGrace = 2
        source.syncDeadlineMargin = 10
        let pilot = pilot(source, columns: 100)
        relay.drip(path: "/sync", bytesPerSecond: 40)
        let started = Date()
        source.startSyncing()

        let stalled = try waitForBar(pilot, source: source, timeout: 9) { $0.contains("stalled — the server is slow to answer") }
        XCTAssertTrue(stalled.bar.contains("stalled"), "the bar: \(stalled.bar)")
        print("stalled after \(String(format: "%.1f", stalled.seconds)) s")
        let offline = try waitForBar(pilot, source: source, timeout: 20) { $0.contains("offline") }
        let ended = Date().timeIntervalSince(started)
        XCTAssertTrue(offline.bar.contains("offline — retrying in"), "the bar: \(offline.bar)")
        print("the dripped sync ended after \(String(format: "%.1f", ended)) s, \(relay.drippedBytes) bytes dripped")
        XCTAssertGreaterThan(relay.drippedBytes, 200, "bytes kept coming: no idle timeout would have fired")
        XCTAssertLessThan(ended, source.syncDeadlineMargin + 8, "the deadline covers the whole answer")

        relay.stopDripping(path: "/sync")
        try bo.other.sendText(roomID: room, body: "after the drip")
        let back = try waitForBar(pilot, source: source, timeout: 40) { _ in
            pilot.lines.contains { $0.contains("after the drip") } && pilot.lines.last?.split(separator: " ").contains("live") == true
        }
        XCTAssertTrue(back.bar.split(separator: " ").contains("live") && pilot.lines.contains { $0.contains("after the drip") },
                      "\(pilot.lines)")
    }

    /// The reconnect path: a sync retried after the server was lost starts while the bar says
    /// `connecting`; dripped, it says stalled all the same, and a send going through meanwhile
    /// does not call it live while that sync is still overdue.
    func testARetriedSyncThatDripsSaysStalledAndASendGoingThroughKeepsItSo() throws {
        let (_, ann, _, relay, source) = try openThroughARelay("Dripped retry")
        defer { relay.stop() }
        defer { source.stop() }
        source.syncStallGrace = 2
        source.syncDeadlineMargin = 25
        let pilot = pilot(source, columns: 100)
        relay.drip(path: "/sync", bytesPerSecond: 40)
        relay.cut()
        source.startSyncing()
        _ = try waitForBar(pilot, source: source, timeout: 10) { $0.contains("offline — retrying in 1 s") }
        relay.restore()
        let retried = try waitForBar(pilot, source: source, timeout: 5) { $0.split(separator: " ").contains("connecting") }
        XCTAssertTrue(retried.bar.contains("connecting"), "the retry starts connecting: \(retried.bar)")

        let stalled = try waitForBar(pilot, source: source, timeout: 9) { $0.contains("stalled — the server is slow to answer") }
        XCTAssertTrue(stalled.bar.contains("stalled"), "a retried sync dripping says stalled: \(stalled.bar)")
        let sinceStalled = taken.count
        let mine = comment(by: ann, "sent while the sync drips")
        XCTAssertEqual(source.send(mine), .pending)
        let sent = try waitForBar(pilot, source: source, timeout: 15) { _ in
            self.taken.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } }
        }
        XCTAssertTrue(taken.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } }, "the send went through")
        XCTAssertTrue(sent.bar.contains("stalled"), "still stalled after the send: \(sent.bar)")
        let meanwhile = taken[sinceStalled...]
        XCTAssertFalse(meanwhile.contains { if case .connection(.live) = $0 { true } else { false } }, "never live meanwhile: \(meanwhile.map(describe))")
    }

    /// Every update taken by `waitForBar`, in order.
    private var taken: [ThreadUpdate] = []

    /// Takes the source's updates into the app as the loop does, a frame after each, until
    /// `done` says the status bar (the last row) is as awaited or `timeout` seconds pass.
    private func waitForBar(_ pilot: Pilot, source: MatrixThreadSource, timeout: Double,
                            until done: (String) -> Bool) throws -> (bar: String, seconds: Double) {
        let start = Date()
        while true {
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 0.1) }
            pilot.app.wallTime = Date()
            pilot.advance(by: 0.1)
            let updates = source.takeUpdates()
            taken += updates
            pilot.app.receive(updates)
            pilot.draw()
            let bar = pilot.lines.last ?? ""
            let seconds = Date().timeIntervalSince(start)
            if done(bar) || seconds > timeout { return (bar, seconds) }
        }
    }
}
