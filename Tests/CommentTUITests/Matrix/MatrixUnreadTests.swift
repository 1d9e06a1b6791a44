import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// Comments that arrived while the reader was away, against a real Synapse: the `new` divider
/// and `N unread · Alt-U` come from the read marker as it was before this start, and the
/// marker on the server moves only over comments that were on screen.
final class MatrixUnreadTests: SharedSynapseTestCase {
    /// Bo's post and five comments Ann has read on screen (her marker on the server is on the
    /// fifth), then `count` more from Bo while she is away.
    private func whileAway(_ count: Int, environment: [String: String]) throws -> (ann: MatrixTestUser, room: String, lastRead: String) {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Away", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        var lastRead = ""
        for n in 1...5 { lastRead = try bo.other.sendText(roomID: room, body: "read before \(n)") }
        let first = try open(room, as: ann, environment: environment)
        let pilot = pilot(first)
        try waitForServerMarker(of: ann, in: room, toBe: lastRead)
        pilot.app.saveReadMarkerAndClose()
        for n in 1...count { try bo.other.sendText(roomID: room, body: "while away \(n)") }
        return (ann, room, lastRead)
    }

    func testThirtyWhileAwayFromTheOfflineCopy() throws {
        try checkThirtyWhileAway(usesCache: true)
    }

    func testThirtyWhileAwayWithoutTheCache() throws {
        try checkThirtyWhileAway(usesCache: false)
    }

    private func checkThirtyWhileAway(usesCache: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let environment = temporaryDataEnvironment()
        let (ann, room, lastRead) = try whileAway(30, environment: environment)
        let source = try open(room, as: ann, environment: environment, usesCache: usesCache)
        defer { source.stop() }
        let pilot = pilot(source)
        // The 30 are in the feed (opened, or caught up from the offline copy).
        try takeUpdates(into: pilot, from: source) { $0.lines.contains { $0.contains("while away 30") } }
        XCTAssertEqual(pilot.lines.last?.hasSuffix("30 unread · Alt-U"), true, "\(pilot.lines.joined(separator: "\n"))", file: file, line: line)
        XCTAssertFalse(pilot.lines.contains { $0.hasSuffix("while away 1") }, "the newest show, the divider is above")
        // A reader's pause on the newest: what was never on screen stays unread on the server.
        pause(pilot, source: source)
        XCTAssertEqual(try serverMarker(of: ann, in: room), lastRead, "the marker jumped over comments never shown", file: file, line: line)

        pilot.press(KeyPress(.character("u"), .alt))
        pause(pilot, source: source)
        let lines = pilot.lines
        let divider = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") },
                                    "no divider: \(lines.joined(separator: "\n"))", file: file, line: line)
        XCTAssertTrue(lines[divider...].prefix(4).contains { $0.hasSuffix("while away 1") }, "\(lines.joined(separator: "\n"))",
                      file: file, line: line)
        // Up to what is on screen now, and no further.
        let newestShown = lines.compactMap { line -> Int? in
            guard let range = line.range(of: "while away ") else { return nil }
            return Int(line[range.upperBound...])
        }.max() ?? 0
        XCTAssertGreaterThan(newestShown, 0)
        XCTAssertLessThan(newestShown, 30)
        let marker = try waitForServerMarker(of: ann, in: room, notToBe: lastRead)
        let markerBody = try body(of: marker, in: room, as: ann)
        XCTAssertTrue(markerBody.hasPrefix("while away "), markerBody, file: file, line: line)
        XCTAssertLessThanOrEqual(Int(markerBody.dropFirst("while away ".count)) ?? 99, newestShown, "beyond the screen", file: file, line: line)

        // Page by page to the newest, as a reader does: the marker follows to it.
        for _ in 0..<20 where !pilot.isFollowingBottom {
            pilot.press(.pageDown)
            pause(pilot, source: source)
        }
        let newest = try XCTUnwrap(try ann.other.messages(roomID: room, limit: 1).first?["event_id"] as? String)
        try waitForServerMarker(of: ann, in: room, toBe: newest)
    }

    /// The first sync asks for no wait and may answer before the app is built: the comments it
    /// brought are unread all the same (they wait in the source's queue for the app).
    func testThirtyWhileAwayCaughtUpBeforeTheAppIsBuilt() throws {
        let environment = temporaryDataEnvironment()
        let (ann, room, _) = try whileAway(30, environment: environment)
        let source = try open(room, as: ann, environment: environment, usesCache: true)
        defer { source.stop() }
        let deadline = Date().addingTimeInterval(20)
        while !source.locked({ source.hasCaughtUp }), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertTrue(source.locked { source.hasCaughtUp }, "the first sync answered before the app was built")
        let pilot = pilot(source)
        try takeUpdates(into: pilot, from: source) { $0.lines.contains { $0.contains("while away 30") } }
        XCTAssertEqual(pilot.unreadStatus, "30 unread · Alt-U", pilot.lines.joined(separator: "\n"))
    }

    /// Ann read six of the ten on another client (Element) while away: reopened, with the
    /// offline copy or without, four are unread, the divider above the seventh.
    func testAMarkerMovedByAnotherClientWhileAwayCountsFromThere() throws {
        for usesCache in [false, true] {
            let environment = temporaryDataEnvironment()
            let (ann, room, _) = try whileAway(10, environment: environment)
            let sixth = try XCTUnwrap(try ann.other.messages(roomID: room, limit: 10).first {
                ($0["content"] as? [String: Any])?["body"] as? String == "while away 6" }?["event_id"] as? String)
            try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/read_markers",
                               body: ["m.fully_read": sixth])
            let source = try open(room, as: ann, environment: environment, usesCache: usesCache)
            defer { source.stop() }
            let pilot = pilot(source)
            try takeUpdates(into: pilot, from: source) { $0.lines.contains { $0.hasSuffix("while away 10") } && !source.isCatchingUpNow }
            pause(pilot, source: source)
            XCTAssertEqual(pilot.unreadStatus, "4 unread · Alt-U", "cache \(usesCache): \(pilot.lines.joined(separator: "\n"))")
            let lines = pilot.lines
            let divider = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") }, lines.joined(separator: "\n"))
            XCTAssertTrue(lines[divider...].prefix(3).contains { $0.hasSuffix("while away 7") }, "cache \(usesCache): \(lines.joined(separator: "\n"))")
        }
    }

    /// More than a page while away: the marker is older than the newest page opened.
    func testSixtyWhileAwayWithoutTheCache() throws {
        try checkSixtyWhileAway(usesCache: false)
    }

    func testSixtyWhileAwayFromTheOfflineCopy() throws {
        try checkSixtyWhileAway(usesCache: true)
    }

    private func checkSixtyWhileAway(usesCache: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let environment = temporaryDataEnvironment()
        let (ann, room, lastRead) = try whileAway(60, environment: environment)
        let source = try open(room, as: ann, environment: environment, usesCache: usesCache)
        defer { source.stop() }
        let pilot = pilot(source)
        try takeUpdates(into: pilot, from: source) { $0.lines.contains { $0.contains("while away 60") } && $0.lines.last?.contains(" unread · Alt-U") == true }
        XCTAssertTrue(pilot.lines[0].contains("Away"), "the room's name: \(pilot.lines[0])", file: file, line: line)
        // Both paths open back to the marker (one page before the newest): the count is exact.
        XCTAssertEqual(pilot.unreadStatus, "60 unread · Alt-U", "\(pilot.lines.joined(separator: "\n"))", file: file, line: line)
        pause(pilot, source: source)
        XCTAssertEqual(try serverMarker(of: ann, in: room), lastRead, "the marker jumped over comments never shown", file: file, line: line)
        // Alt-U until the first of the sixty is on screen (the page before comes as the feed nears it).
        for _ in 0..<4 where !pilot.lines.contains(where: { $0.hasSuffix("while away 1") }) {
            pilot.press(KeyPress(.character("u"), .alt))
            pause(pilot, source: source)
        }
        let lines = pilot.lines
        let divider = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") },
                                    "no divider: \(lines.joined(separator: "\n"))", file: file, line: line)
        XCTAssertTrue(lines[divider...].prefix(3).contains { $0.hasSuffix("while away 1") }, "\(lines.joined(separator: "\n"))",
                      file: file, line: line)
        XCTAssertEqual(pilot.lines.last?.hasSuffix("60 unread · Alt-U"), false, "at the first unread the notice has done its work")
        let newestShown = lines.compactMap { line -> Int? in
            guard let range = line.range(of: "while away ") else { return nil }
            return Int(line[range.upperBound...])
        }.max() ?? 0
        let marker = try waitForServerMarker(of: ann, in: room, notToBe: lastRead)
        let markerBody = try body(of: marker, in: room, as: ann)
        XCTAssertEqual(markerBody, "while away \(newestShown)", "read up to the screen, no further", file: file, line: line)
    }

    /// Another client put the marker on an event that is no comment (an edit; the post):
    /// the unread ones are those after it, and nothing moves it unseen.
    func testAMarkerOnAnEditOrOnThePostCountsWhatFollowsIt() throws {
        for onPost in [true, false] {
            let server = try server
            let (bo, ann, room) = try twoUsersInARoom("Elsewhere", on: server)
            let post = try bo.other.sendText(roomID: room, body: "the post")
            let first = try bo.other.sendText(roomID: room, body: "first")
            try bo.other.sendText(roomID: room, body: "second")
            let edit = try bo.other.send(roomID: room, content: [
                "msgtype": "m.text", "body": "* first, edited",
                "m.new_content": ["msgtype": "m.text", "body": "first, edited"],
                "m.relates_to": ["rel_type": "m.replace", "event_id": first],
            ])
            for n in 1...4 { try bo.other.sendText(roomID: room, body: "after \(n)") }
            let marker = onPost ? post : edit
            try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/read_markers",
                               body: ["m.fully_read": marker])
            let source = try open(room, as: ann, follows: false, usesCache: false)
            defer { source.stop() }
            let pilot = pilot(source, rows: 12)
            let unread = onPost ? 6 : 4
            XCTAssertEqual(pilot.lines.last?.hasSuffix("\(unread) unread · Alt-U"), true, "\(pilot.lines.joined(separator: "\n"))")
            pause(pilot, source: source)
            XCTAssertEqual(try serverMarker(of: ann, in: room), marker, "moved over comments never shown")
            pilot.press(KeyPress(.character("u"), .alt))
            pause(pilot, source: source)
            let lines = pilot.lines
            let divider = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") }, lines.joined(separator: "\n"))
            XCTAssertTrue(lines[divider...].prefix(3).contains { $0.hasSuffix(onPost ? "first, edited" : "after 1") },
                          lines.joined(separator: "\n"))
        }
    }

    /// Another client put the marker on a reaction, older than the opened page: the page before
    /// finds it among its events (not only its comments), and the divider and read point follow.
    func testAMarkerOnAReactionOlderThanThePageIsFoundInTheOlderPage() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Reacted", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        var reacted = ""
        for n in 1...3 { reacted = try bo.other.sendText(roomID: room, body: "before \(n)") }
        let reaction = try ann.other.send(roomID: room, content: ["m.relates_to": ["rel_type": "m.annotation", "event_id": reacted, "key": "👍"]],
                                          type: "m.reaction")
        for n in 1...60 { try bo.other.sendText(roomID: room, body: "after \(n)") }
        try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/read_markers",
                           body: ["m.fully_read": reaction])
        let source = try open(room, as: ann, usesCache: false)
        defer { source.stop() }
        let pilot = pilot(source)
        try takeUpdates(into: pilot, from: source) { $0.lines.contains { $0.hasSuffix("after 60") } }
        for _ in 0..<4 where !pilot.lines.contains(where: { $0.hasSuffix("after 1") }) {
            pilot.press(KeyPress(.character("u"), .alt))
            pause(pilot, source: source)
        }
        let lines = pilot.lines
        let divider = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[divider...].prefix(3).contains { $0.hasSuffix("after 1") }, lines.joined(separator: "\n"))
        // The read point moves from it over what is on screen.
        let newestShown = lines.compactMap { line -> Int? in
            guard let range = line.range(of: "after ") else { return nil }
            return Int(line[range.upperBound...])
        }.max() ?? 0
        let marker = try waitForServerMarker(of: ann, in: room, notToBe: reaction)
        XCTAssertEqual(try body(of: marker, in: room, as: ann), "after \(newestShown)")
    }

    /// Ann answers and quits; Bo writes three more: she sees three unread below the divider and
    /// her answer above it, from the offline copy as without it.
    func testOurOwnCommentNeverSitsBelowTheDivider() throws {
        for usesCache in [true, false] {
            let server = try server
            let (bo, ann, room) = try twoUsersInARoom("Answered", on: server)
            try bo.other.sendText(roomID: room, body: "the post")
            try bo.other.sendText(roomID: room, body: "a question")
            let environment = temporaryDataEnvironment()
            let first = try open(room, as: ann, environment: environment, usesCache: usesCache)
            let answering = pilot(first)
            answering.type("my answer\n")
            try takeUpdates(into: answering, from: first) { $0.lines.last?.hasSuffix("posted") == true }
            answering.app.saveReadMarkerAndClose()
            // She read up to her answer: the marker is there when she leaves.
            let answer = try XCTUnwrap(try ann.other.messages(roomID: room, limit: 5).first { ($0["content"] as? [String: Any])?["body"] as? String == "my answer" }?["event_id"] as? String)
            try waitForServerMarker(of: ann, in: room, toBe: answer)
            for n in 1...3 { try bo.other.sendText(roomID: room, body: "after \(n)") }

            let again = try open(room, as: ann, environment: environment, usesCache: usesCache)
            defer { again.stop() }
            let pilot = pilot(again)
            try takeUpdates(into: pilot, from: again) { $0.lines.contains { $0.hasSuffix("after 3") } && $0.app.unreadStatus != nil }
            // All on one screen with the divider: the notice has done its work and is gone.
            XCTAssertEqual(pilot.unreadStatus, "3 unread · Alt-U",
                           "cache \(usesCache), marker \(String(describing: again.loadReadMarker())), unsent \(again.unsentComments.map(\.body)), \((again.openedComments as! ArrayCommentStore).comments.map(\.body)): \(pilot.lines.joined(separator: "\n"))")
            pause(pilot, source: again)
            let lines = pilot.lines
            let divider = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(" ─") && $0.contains(" new ") }, lines.joined(separator: "\n"))
            XCTAssertTrue(lines[divider...].prefix(3).contains { $0.hasSuffix("after 1") }, lines.joined(separator: "\n"))
            XCTAssertTrue(lines[..<divider].contains { $0.hasSuffix("my answer") }, lines.joined(separator: "\n"))
        }
    }

    /// Reopened at once without the cache, after comments came: Synapse keeps sync answers for
    /// a while, keyed by the request, and the second opening must not be given the first's.
    func testAReopenWithinSecondsOpensWithWhatCameSince() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Again", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        try bo.other.sendText(roomID: room, body: "before")
        for round in 1...3 {
            let first = try open(room, as: ann, usesCache: false)
            first.stop()
            try bo.other.sendText(roomID: room, body: "between \(round)")
            let again = try open(room, as: ann, follows: false, usesCache: false)
            XCTAssertEqual((again.openedComments as! ArrayCommentStore).comments.last?.body, "between \(round)", "round \(round)")
        }
    }

    // MARK: Helpers

    /// A realistic pause of a second: time passes for the app (motions end) and for the source
    /// (its updates are taken, as the loop does).
    private func pause(_ pilot: Pilot, source: ThreadSource) {
        let end = Date().addingTimeInterval(1)
        while Date() < end {
            if let ready = source.updatesReady { _ = try? Poll.readable([ready], timeout: 0.1) }
            pilot.advance(by: 0.1)
            pilot.app.sourceIsReady()
            pilot.draw()
        }
        pilot.runFrames()
    }

    /// Takes the source's updates, a frame after each, until `done` (bounded).
    private func takeUpdates(into pilot: Pilot, from source: ThreadSource, timeout: Double = 20,
                             file: StaticString = #filePath, line: UInt = #line, until done: (Pilot) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !done(pilot) {
            guard Date() < deadline else { return XCTFail("not in \(timeout) s: \(pilot.lines.joined(separator: "\n"))", file: file, line: line) }
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: 0.1) }
            // Time passes as it does for the loop: a few arrivals come in with a transition.
            pilot.advance(by: 0.1)
            pilot.app.sourceIsReady(at: pilot.time)
            pilot.draw()
        }
    }

    /// `m.fully_read` as the server has it, read through another client with the user's token.
    private func serverMarker(of user: MatrixTestUser, in room: String) throws -> String? {
        func escaped(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s }
        let answer = try user.other.request(
            method: "GET", path: "/_matrix/client/v3/user/\(escaped(user.account.userID))/rooms/\(escaped(room))/account_data/m.fully_read")
        return answer.json["event_id"] as? String
    }

    /// Waits (bounded) for the server's marker to be `expected`.
    private func waitForServerMarker(of user: MatrixTestUser, in room: String, toBe expected: String,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        var marker: String?
        for _ in 0..<100 where marker != expected {
            marker = try serverMarker(of: user, in: room)
            if marker != expected { Thread.sleep(forTimeInterval: 0.1) }
        }
        XCTAssertEqual(marker, expected, "the server's m.fully_read", file: file, line: line)
    }

    /// Waits (bounded) for the server's marker to move from `old`; returns it.
    private func waitForServerMarker(of user: MatrixTestUser, in room: String, notToBe old: String) throws -> String {
        var marker: String? = old
        for _ in 0..<100 where marker == old {
            Thread.sleep(forTimeInterval: 0.1)
            marker = try serverMarker(of: user, in: room)
        }
        return marker ?? ""
    }

    /// The body of an event, read through another client.
    private func body(of eventID: String, in room: String, as user: MatrixTestUser) throws -> String {
        func escaped(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s }
        let answer = try user.other.call("GET", "/_matrix/client/v3/rooms/\(escaped(room))/event/\(escaped(eventID))")
        return (answer["content"] as? [String: Any])?["body"] as? String ?? ""
    }
}

private extension MatrixThreadSource {
    /// Whether its first sync has yet to answer.
    var isCatchingUpNow: Bool { locked { !hasCaughtUp } }
}

private extension CommentApp {
    /// What the launcher does at exit: the marker saved, the source closed.
    func saveReadMarkerAndClose() {
        try? saveReadMarker()
        source.close()
    }
}
