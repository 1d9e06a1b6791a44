import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// A room on a real Synapse as a thread: opening, what other clients send, what we send,
/// history, read markers. The server starts once for the class and stops by its pid.
final class MatrixRoomTests: SharedSynapseTestCase {
    /// The screen of an app on the source, at rest.
    private func screen(_ source: ThreadSource, me: User, columns: Int = 100, rows: Int = 60) -> String {
        let app = CommentApp(source: source, me: me, columns: columns, rows: rows)
        app.wallTime = Date()
        return app.render().buffer.trimmedLines.joined(separator: "\n")
    }

    func testARoomAnotherUserCreatedOpensWithItsTitlePostAndMembers() throws {
        let server = try server
        let bo = try registerUser("bo", displayName: "Bo Builder", on: server)
        let ann = try registerUser("ann", displayName: "Ann", on: server)
        let room = try bo.other.createRoom(name: "Release 2.4", preset: .publicChat, alias: "release-\(bo.localpart)")
        let post = try bo.other.sendText(roomID: room, body: "What ships in **2.4**?")
        try bo.other.sendState(roomID: room, type: "m.room.pinned_events", content: ["pinned": [post]])
        try bo.other.sendText(roomID: room, body: "first comment")

        // Joining a public room by its alias.
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:#release-\(bo.localpart):\(server.serverName)"))
        let source = try MatrixThreadSource(client: ann.client, address: address, me: ann.account.userID, environment: [:], follows: false)
        XCTAssertEqual(source.roomID, room)
        XCTAssertEqual(source.thread.title, "Release 2.4")
        XCTAssertEqual(source.thread.author, bo.account.userID)
        XCTAssertEqual(source.openedComments.commentCount, 1, "the post is the header, not a comment")
        XCTAssertEqual(source.thread.user(id: bo.account.userID)?.name, "Bo Builder")
        XCTAssertEqual(source.thread.user(id: bo.account.userID)?.handle, bo.localpart)
        let shown = screen(source, me: source.reader)
        XCTAssertTrue(shown.contains("Release 2.4") && shown.contains("first comment"), shown)
    }

    func testWhatAnotherClientSendsShowsAsThatClientMeantIt() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Formats", on: server)
        let pill = "https://matrix.to/#/\(ann.account.userID)"
        try bo.other.sendText(roomID: room, body: "The post: a list of formats")
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "Ann: look", "format": "org.matrix.custom.html",
            "formatted_body": "<a href=\"\(pill)\">Ann</a>: look <strong>here</strong>", "m.mentions": ["user_ids": [ann.account.userID]]])
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "the killer is the butler", "format": "org.matrix.custom.html",
            "formatted_body": "the killer is <span data-mx-spoiler>the butler</span>"])
        let typo = try bo.other.sendText(roomID: room, body: "teh typo")
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "* the typo", "m.new_content": ["msgtype": "m.text", "body": "the typo fixed"],
            "m.relates_to": ["rel_type": "m.replace", "event_id": typo]])
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "> <\(bo.account.userID)> teh typo\n\nmy answer", "format": "org.matrix.custom.html",
            "formatted_body": "<mx-reply><blockquote><a href=\"https://matrix.to/#/\(room)/\(typo)\">In reply to</a> <a href=\"https://matrix.to/#/\(bo.account.userID)\">Bo</a><br>teh typo</blockquote></mx-reply>my answer",
            "m.relates_to": ["m.in_reply_to": ["event_id": typo]]])
        try bo.other.send(roomID: room, content: ["msgtype": "m.emote", "body": "waves"])
        let gone = try bo.other.sendText(roomID: room, body: "regrettable")
        try bo.other.redact(roomID: room, eventID: gone)
        try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "evil \u{1B}[2J", "format": "org.matrix.custom.html",
            "formatted_body": "<script>x</script><b onclick=\"y\">bold\u{1B}]0;pwned\u{07}</b><img src=x alt=pic><mx-reply>hidden</mx-reply>"])

        let source = try open(room, as: ann, follows: false)
        let shown = screen(source, me: source.reader)
        XCTAssertTrue(shown.contains("@\(ann.localpart): look here"), shown)
        XCTAssertTrue(shown.contains("the killer is"), shown)
        XCTAssertFalse(shown.contains("butler"), "a spoiler stays hidden: \(shown)")
        XCTAssertTrue(shown.contains("the typo fixed") && shown.contains("edited"), shown)
        XCTAssertFalse(shown.contains("teh typo"), "the reply fallback is stripped and the edit applied: \(shown)")
        XCTAssertTrue(shown.contains("my answer") && !shown.contains("In reply to"), shown)
        XCTAssertTrue(shown.contains("* Bo waves"), shown)
        XCTAssertTrue(shown.contains("(deleted)") && !shown.contains("regrettable"), shown)
        XCTAssertTrue(shown.contains("bold") && !shown.contains("hidden"), shown)
        XCTAssertFalse(shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "no control byte reaches the screen")
        // The mention names the reader: it is a mention attribute, not just text.
        let store = source.openedComments as! ArrayCommentStore
        let parsed = CommentMarkup.parse(store.comments[0].body, users: source.thread.users)
        XCTAssertTrue(parsed.runs.contains { $0.attributes[CommentAttributes.MentionAttribute.self] == ann.account.userID })
    }

    func testOurCommentArrivesWithMentionsSpoilersAndIsConfirmedByItsEcho() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Ours", on: server)
        let source = try open(room, as: ann)
        defer { source.stop() }
        let mine = comment(by: ann, "hi @\(bo.localpart), the answer is ||42||")
        XCTAssertEqual(source.send(mine), .pending)
        let updates = try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(mine.id) = $0 { true } else { false } } }
        XCTAssertFalse(updates.flatMap(\.appended).contains { $0.body.contains("answer") }, "our echo is not appended twice")
        let event = try XCTUnwrap(bo.other.messages(roomID: room).first { $0["type"] as? String == "m.room.message" })
        let content = try XCTUnwrap(event["content"] as? [String: Any])
        XCTAssertEqual(content["body"] as? String, "hi Bo, the answer is ||42||", "the plain body names Bo, not our handle for him")
        XCTAssertEqual((content["m.mentions"] as? [String: Any])?["user_ids"] as? [String], [bo.account.userID])
        let html = try XCTUnwrap(content["formatted_body"] as? String)
        XCTAssertTrue(html.contains("data-mx-spoiler") && html.contains("https://matrix.to/#/\(bo.account.userID)"), html)
    }

    func testAnotherUsersCommentArrivesLiveAndTypingShows() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Live", on: server)
        let source = try open(room, as: ann)
        defer { source.stop() }
        try bo.other.call("PUT", "/_matrix/client/v3/rooms/\(room.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/typing/\(bo.account.userID.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)",
                          body: ["typing": true, "timeout": 10000])
        try collectUpdates(from: source) { $0.contains { if case .typing(let ids) = $0 { ids == [bo.account.userID] } else { false } } }
        try bo.other.sendText(roomID: room, body: "live one")
        try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.body == "live one" } }
    }

    func testOlderCommentsPageInAtTheTopWithoutMovingTheView() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("History", on: server)
        for n in 1...130 { try bo.other.sendText(roomID: room, body: "message \(n)") }
        let source = try open(room, as: ann, follows: false)
        XCTAssertTrue(source.hasOlderComments)
        let opened = source.openedComments.commentCount
        XCTAssertLessThan(opened, 130)
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let screen = HeadlessScreen(columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: screen)
        pilot.draw()
        XCTAssertTrue(pilot.lines.joined().contains("+"), "the count is open-ended: \(pilot.lines.last ?? "")")
        // Up to the oldest opened comment: the app asks for the page before it.
        _ = pilot.press(.ctrlHome)
        pilot.settle()
        for _ in 0..<7 { _ = pilot.press(.ctrlDown) }
        pilot.settle()
        pilot.draw()
        let feed = app.feedRect
        let before = Array(pilot.lines[feed.row..<feed.maxRow])
        let first = try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } }
        app.receive(first)
        pilot.draw()
        XCTAssertEqual(Array(pilot.lines[feed.row..<feed.maxRow]), before, "the reading position stays put")
        XCTAssertGreaterThan(app.commentCount, opened)
        for _ in 0..<10 where source.hasOlderComments {
            _ = pilot.press(.ctrlHome)
            pilot.settle()
            app.receive(try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } })
        }
        XCTAssertFalse(source.hasOlderComments)
        _ = pilot.press(.ctrlHome)
        pilot.settle()
        pilot.draw()
        XCTAssertTrue(pilot.lines.contains { $0.range(of: #"message 1(?![0-9])"#, options: .regularExpression) != nil }, "\(pilot.lines)")
    }

    func testTheReadMarkerSurvivesAReopen() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Marker", on: server)
        for n in 1...5 { try bo.other.sendText(roomID: room, body: "m\(n)") }
        let first = try open(room, as: ann, follows: false)
        XCTAssertNil(first.loadReadMarker())
        let third = (first.openedComments as! ArrayCommentStore).comments[2]
        try first.saveReadMarker(ReadMarker(commentID: third.id, position: 2))
        let again = try open(room, as: ann, follows: false)
        XCTAssertEqual(again.loadReadMarker(), ReadMarker(commentID: third.id, position: 2))
        let app = CommentApp(source: again, me: again.reader, columns: 80, rows: 30)
        app.wallTime = Date()
        let lines = app.render().buffer.trimmedLines
        // m1 is the post; the marker is on the third comment (m4), so m5 is the first unread.
        XCTAssertEqual(third.body, "m4")
        let divider = try XCTUnwrap(lines.firstIndex { $0.contains(" new ") }, "\(lines)")
        XCTAssertTrue(lines[divider...].contains { $0.contains("m5") } && !lines[divider...].contains { $0.contains("m4") }, "\(lines)")
    }

    func testReadingMovesTheMarkerOnTheServerAndTypingIsSent() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Reading", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        let newest = try bo.other.sendText(roomID: room, body: "newest")
        let annSource = try open(room, as: ann)
        defer { annSource.stop() }
        let boSource = try open(room, as: bo)
        defer { boSource.stop() }
        // Ann's screen shows the newest comment: the marker follows without waiting for exit.
        let app = CommentApp(source: annSource, me: annSource.reader, columns: 80, rows: 24)
        app.didPresent(app.render())
        var marker: String?
        for _ in 0..<100 where marker != newest {
            marker = try ann.client.fullyRead(room: room, userID: ann.account.userID)
            if marker != newest { Thread.sleep(forTimeInterval: 0.05) }
        }
        XCTAssertEqual(marker, newest)
        // Typing in the composer tells the others; sending stops it.
        app.update(.paste("hel"))
        try collectUpdates(from: boSource) { $0.contains { if case .typing(let ids) = $0 { ids == [ann.account.userID] } else { false } } }
        _ = app.update(.key(KeyPress(.enter)))
        try collectUpdates(from: boSource) { $0.contains { if case .typing(let ids) = $0 { ids.isEmpty } else { false } } }
    }

    func testAReplyCarriesItsRelation() throws {
        let server = try server
        let ann = try registerUser("ann", on: server)
        let room = try ann.other.createRoom(name: "Replies", preset: .publicChat)
        try ann.other.sendText(roomID: room, body: "post")
        let parent = try ann.other.sendText(roomID: room, body: "question?")
        let source = try open(room, as: ann)
        defer { source.stop() }
        let answer = comment(by: ann, "answer")
        _ = source.send(answer, inReplyTo: parent)
        try collectUpdates(from: source) { $0.contains { if case .sendConfirmed(answer.id) = $0 { true } else { false } } }
        let event = try XCTUnwrap(ann.other.messages(roomID: room).first { ($0["content"] as? [String: Any])?["body"] as? String == "answer" })
        let relation = (event["content"] as? [String: Any])?["m.relates_to"] as? [String: Any]
        XCTAssertEqual((relation?["m.in_reply_to"] as? [String: Any])?["event_id"] as? String, parent)
    }

    func testAGapTheServerReportsIsFilledInOrder() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Gap", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "before the gap")
        let source = try open(room, as: ann, follows: false)
        defer { source.stop() }
        // More than a sync's page arrives while the source is not following: the next sync is `limited`.
        let count = MatrixThreadSource.pageSize + 30
        for n in 1...count { try bo.other.sendText(roomID: room, body: "gap \(n)") }
        source.startSyncing()
        let updates = try collectUpdates(from: source, timeout: 30) { $0.flatMap(\.appended).count >= count }
        XCTAssertEqual(updates.flatMap(\.appended).map(\.body), (1...count).map { "gap \($0)" })
    }

    func testALongerGapIsMarkedInTheFeedAndFilledInPlaceWhenScrolledTo() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Long gap", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "before the gap")
        let source = try open(room, as: ann, follows: false)
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 80, rows: 24)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 80, rows: 24))
        // More than a sync's page (the account's sync's, per room) and the one page read back at
        // once: the rest is a gap.
        let count = MatrixAccountFilter.timelineLimit + MatrixThreadSource.gapPageSize + 60
        for n in 1...count { try bo.other.sendText(roomID: room, body: "gap \(n)") }
        source.startSyncing()
        let first = try collectUpdates(from: source, timeout: 30) { $0.flatMap(\.appended).count >= count - 60 }
        guard let gapAt = first.firstIndex(where: { if case .gap = $0 { true } else { false } }) else { return XCTFail("no gap reported") }
        XCTAssertTrue(first[gapAt...].contains { !$0.appended.isEmpty }, "the gap comes before the newest comments")
        XCTAssertEqual(first.flatMap(\.appended).map(\.body), (61...count).map { "gap \($0)" }, "the newest show at once")
        app.receive(first)
        let marker = try XCTUnwrap((0..<app.commentCount).first(where: app.isGap(at:)))
        // Scrolled to the marker (the fill was asked for as it came near): it shows, dim, in place.
        app.feed.scroll.scrollTo(comment: marker, row: 0, alignment: .top, animated: false, at: app.now)
        pilot.draw()
        let feed = app.feedRect
        XCTAssertTrue(pilot.lines[feed.row].contains("loading the messages missed"), pilot.lines.joined(separator: "\n"))
        let below = pilot.lines[(feed.row + 1)..<feed.maxRow].joined(separator: "\n")
        XCTAssertTrue(below.contains("gap 61"), below)
        // The fill arrives: the missing comments take the marker's place above what was shown.
        let filled = try collectUpdates(from: source, timeout: 30) { updates in
            updates.contains { if case .gapFilled(_, _, true) = $0 { true } else { false } }
        }
        app.receive(filled)
        pilot.draw()
        XCTAssertEqual(pilot.lines[(feed.row + 1)..<feed.maxRow].joined(separator: "\n"), below, "what was on screen stays put")
        let bodies = (0..<app.commentCount).compactMap { app.comment(at: $0)?.body }
        XCTAssertEqual(Array(bodies.drop { $0 != "before the gap" }), ["before the gap"] + (1...count).map { "gap \($0)" })
        XCTAssertNil((0..<app.commentCount).first(where: app.isGap(at:)), "no marker left")
    }
}
