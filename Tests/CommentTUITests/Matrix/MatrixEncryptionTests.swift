import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// Rooms with end-to-end encryption switched on, which comment-tui cannot encrypt for yet: no
/// plaintext ever goes in (checked by reading the room as another user), and what it cannot
/// read shows in place (joining one: `MatrixEncryptedRoomJoiningTests`). Another client (Bo,
/// `MatrixTestClient`) switches encryption on and sends encrypted events with made-up
/// ciphertext: Synapse stores whatever a client sends. One Synapse for the class, stopped by its pid.
final class MatrixEncryptionTests: SharedSynapseTestCase {
    private static var megolm: [String: Any] { ["algorithm": "m.megolm.v1.aes-sha2"] }

    /// An `m.room.encrypted` content as Element sends one, with ciphertext no one can read.
    private func ciphertext(_ n: Int) -> [String: Any] {
        ["algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEpAB\(n)made+up/ciphertext", "session_id": "session-\(n)",
         "sender_key": "bo-curve25519-key", "device_id": "BODEVICE"]
    }

    /// The `m.room.message` events `user` sent after encryption was switched on, as `reader`
    /// (another client) reads the room's timeline from the server.
    private func plaintext(from user: MatrixTestUser, in room: String, readBy reader: MatrixTestUser,
                           file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let events = try reader.other.messages(roomID: room, dir: "b", limit: 200).reversed()
        guard let switched = events.firstIndex(where: { $0["type"] as? String == "m.room.encryption" }) else {
            XCTFail("the room has no m.room.encryption event", file: file, line: line)
            return []
        }
        return events[switched...].filter { $0["type"] as? String == "m.room.message" && $0["sender"] as? String == user.account.userID }
            .compactMap { ($0["content"] as? [String: Any])?["body"] as? String }
    }

    /// The screen of an app on the source, at rest, after `updates`.
    private func screen(_ source: MatrixThreadSource, after updates: [ThreadUpdate] = [], rows: Int = 24) -> [String] {
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: rows)
        app.wallTime = Date()
        app.receive(updates)
        return app.render().buffer.trimmedLines
    }

    func testEncryptionSwitchedOnWhileOpenStopsPlaintextAndShowsEncryptedEventsInPlace() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Switched", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendText(roomID: room, body: "before the switch")
        let source = try open(room, as: ann, environment: temporaryDataEnvironment())
        defer { source.stop() }
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 24)
        app.wallTime = Date()
        app.reduceMotion = true
        XCTAssertFalse(app.render().buffer.trimmedLines.contains { $0.contains("🔒") })

        let switched = try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm)
        let secret = try bo.other.send(roomID: room, content: ciphertext(1), type: "m.room.encrypted")
        // A plaintext marker from Bo: the sync has passed the switch when it arrives.
        let marker = try bo.other.sendText(roomID: room, body: "plain marker")
        let updates = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.id == marker } }
        let rows = updates.flatMap(\.appended)
        XCTAssertEqual(rows.map(\.id), [switched, secret, marker], "\(updates.map(describe))")
        XCTAssertTrue(rows.first?.body.contains("switched on end-to-end encryption") == true, "\(rows)")
        XCTAssertEqual(rows.dropFirst().first?.body, MatrixEncryptedEvent.body, "the encrypted event is a row in its place")
        XCTAssertTrue(updates.contains { describe($0) == "held: \(MatrixEncryption.notice)" }, "\(updates.map(describe))")

        // Enter after the switch: refused, the draft kept, nothing sent.
        let mine = comment(by: ann, "must never leak")
        XCTAssertEqual(source.send(mine), .failed(MatrixEncryption.refusal))
        app.receive(updates)
        app.update(.paste("must never leak"))
        _ = app.update(.key(KeyPress(.enter)))
        let lines = app.render().buffer.trimmedLines
        XCTAssertTrue(lines[0].contains("🔒 encrypted"), "the header marks the room: \(lines)")
        XCTAssertTrue(lines.contains { $0.contains("🔒 encrypted — cannot be read yet") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("› must never leak") }, "the draft is kept: \(lines)")
        XCTAssertTrue(lines.contains { $0.contains("not sent, draft kept: the room is end-to-end encrypted") }, "\(lines)")
        _ = app.update(.key(KeyPress(.character("u"), .ctrl)))
        XCTAssertTrue(app.render().buffer.trimmedLines.contains { $0.hasPrefix("› \(MatrixEncryption.notice)") },
                      "the empty composer says why")

        // Whatever was in flight has landed by the time Bo's next message is seen.
        let after = try bo.other.sendText(roomID: room, body: "later")
        try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.id == after } }
        XCTAssertEqual(try plaintext(from: ann, in: room, readBy: bo), [])
    }

    func testACommentInTheOutboxIsHeldWhenTheOfflineCopyPredatesTheSwitchAndTheCopyKeepsIt() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Copy", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        let environment = temporaryDataEnvironment()
        // Ann's offline copy is written while the room is not encrypted…
        try open(room, as: ann, environment: environment).stop()
        // …then Bo switches encryption on, while a comment of Ann's waits in her outbox (she quit offline).
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm)
        try bo.other.send(roomID: room, content: ciphertext(2), type: "m.room.encrypted")
        let outbox = try outbox(of: ann, in: room, environment: environment)
        try outbox.queue(CommentOutbox.Entry(txn: "c-waiting", author: ann.account.userID, created: Date(), body: "typed before the switch"))

        // Reopened from the copy: the room's state is read before anything is sent.
        let source = try open(room, as: ann, environment: environment)
        XCTAssertEqual(source.unsentComments.map(\.id), ["c-waiting"])
        let updates = try collectUpdates(from: source) { updates in
            updates.contains { if case .sendFailed("c-waiting", _) = $0 { true } else if case .sendConfirmed("c-waiting") = $0 { true } else { false } }
        }
        XCTAssertTrue(updates.contains { describe($0) == "failed c-waiting: \(MatrixEncryption.held)" }, "\(updates.map(describe))")
        source.stop()
        XCTAssertEqual(try outbox.unsent().map(\.txn), ["c-waiting"], "held, not lost")
        XCTAssertEqual(try plaintext(from: ann, in: room, readBy: bo), [])

        // The copy now knows: opened with the server out of reach, the room refuses at once.
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        XCTAssertEqual(MatrixRoomCache(me: ann.account.userID, address: address, environment: environment)?.load()?.isEncrypted, true)
        let unreachable = MatrixClient(homeserver: try XCTUnwrap(URL(string: "http://127.0.0.1:9")), accessToken: "none")
        let offline = try MatrixThreadSource(client: unreachable, address: address, me: ann.account.userID, environment: environment,
                                             follows: false)
        XCTAssertEqual(offline.sendingHeld, MatrixEncryption.notice)
        XCTAssertEqual(offline.send(comment(by: ann, "offline")), .failed(MatrixEncryption.refusal))
        let lines = screen(offline)
        XCTAssertTrue(lines[0].contains("🔒 encrypted"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("› \(MatrixEncryption.notice)") }, "\(lines)")
    }

    /// Ann's source for `room`, talking to the server through a relay the test can cut or stall.
    private func openThroughRelay(_ room: String, as ann: MatrixTestUser, server: SynapseServer,
                                  environment: [String: String]) throws -> (MatrixThreadSource, TCPRelay) {
        let relay = try TCPRelay(to: XCTUnwrap(server.port))
        let annClient = MatrixClient(homeserver: relay.baseURL, accessToken: ann.account.accessToken)
        let source = try MatrixThreadSource(client: annClient, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                                            me: ann.account.userID, environment: environment)
        return (source, relay)
    }

    /// Waits for the comment's send to end (held, failed or confirmed).
    @discardableResult
    private func sendOutcome(of id: String, from source: MatrixThreadSource, timeout: TimeInterval = 60) throws -> [ThreadUpdate] {
        try collectUpdates(from: source, timeout: timeout) { updates in
            updates.contains { if case .sendFailed(id, _) = $0 { true } else if case .sendConfirmed(id) = $0 { true } else { false } }
        }
    }

    func testACommentPendingThroughAnOutageIsHeldWhenTheRoomWasEncryptedMeanwhile() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Outage", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        // Ann's client reaches the server through a relay that can be cut; Bo's directly.
        let (source, relay) = try openThroughRelay(room, as: ann, server: server, environment: temporaryDataEnvironment())
        defer { relay.stop() }
        defer { source.stop() }
        relay.cut()
        try collectUpdates(from: source) { $0.contains { if case .connection(.offline) = $0 { true } else { false } } }
        let mine = comment(by: ann, "written while the server was out of reach")
        XCTAssertEqual(source.send(mine), .pending)
        // Encrypted while Ann's client cannot hear of it; then the way back opens, but not for
        // the sync (held in the relay), so the send cannot learn of the switch from it.
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm)
        relay.stall(path: "/sync")
        relay.restore()
        let updates = try sendOutcome(of: mine.id, from: source)
        XCTAssertTrue(updates.contains { describe($0) == "failed \(mine.id): \(MatrixEncryption.held)" }, "\(updates.map(describe))")
        XCTAssertEqual(try plaintext(from: ann, in: room, readBy: bo), [])
        relay.release(path: "/sync")
    }

    func testACommentSentWhileLiveIsHeldWhenTheSyncHasNotBroughtTheSwitchYet() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Live", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        let environment = temporaryDataEnvironment()
        let (source, relay) = try openThroughRelay(room, as: ann, server: server, environment: environment)
        defer { relay.stop() }
        defer { source.stop() }
        try collectUpdates(from: source) { $0.contains { if case .connection(.live) = $0 { true } else { false } } }
        // The sync's answers wait in the relay: the switch reaches Ann's client only by asking.
        relay.stall(path: "/sync")
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm)
        let mine = comment(by: ann, "typed as the switch happened")
        XCTAssertEqual(source.send(mine), .pending)
        let updates = try sendOutcome(of: mine.id, from: source)
        XCTAssertTrue(updates.contains { describe($0) == "failed \(mine.id): \(MatrixEncryption.held)" }, "\(updates.map(describe))")
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice)
        XCTAssertEqual(try plaintext(from: ann, in: room, readBy: bo), [])
        // The offline copy knows at once, before any sync said so.
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        XCTAssertEqual(MatrixRoomCache(me: ann.account.userID, address: address, environment: environment)?.load()?.isEncrypted, true)
        relay.release(path: "/sync")
    }

    func testASwitchInALimitedSyncHoldsSendingBeforeTheGapIsReadAndTheGapsEncryptedEventsShowInPlace() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Gap", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        let (source, relay) = try openThroughRelay(room, as: ann, server: server, environment: temporaryDataEnvironment())
        defer { relay.stop() }
        defer { source.stop() }
        relay.cut()
        try collectUpdates(from: source) { $0.contains { if case .connection(.offline) = $0 { true } else { false } } }
        // Away: the switch, then more encrypted messages than a sync brings (a limited sync and a gap).
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm)
        var secrets: [String] = []
        for n in 0..<(MatrixThreadSource.pageSize + 10) {
            secrets.append(try bo.other.send(roomID: room, content: ciphertext(100 + n), type: "m.room.encrypted"))
        }
        // The gap's page waits in the relay: the switch must be known before it comes.
        relay.stall(path: "/messages")
        relay.restore()
        let held = try collectUpdates(from: source, timeout: 30) { $0.contains { describe($0) == "held: \(MatrixEncryption.notice)" } }
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice)
        XCTAssertFalse(held.contains { if case .commentsAppended = $0 { true } else { false } }, "before the sync's events: \(held.map(describe))")
        relay.release(path: "/messages")
        // The gap filled from /messages: every encrypted event is a row, in order.
        var rows = held.flatMap(\.appended)
        let rest = try collectUpdates(from: source, timeout: 30) { ($0.flatMap(\.appended) + rows).contains { $0.id == secrets.last } }
        rows += rest.flatMap(\.appended)
        XCTAssertEqual(rows.filter { $0.body == MatrixEncryptedEvent.body }.map(\.id), secrets)
    }

    /// A thread file of `count` comments by one author, to import.
    private func threadFile(_ count: Int) -> CommentThread {
        let marco = User(id: "u-marco", handle: "marco", name: "Marco")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        return CommentThread(id: "t-import", title: "Import", author: marco.id, created: start, body: "post", users: [marco],
                             comments: (1...count).map { Comment(id: "c\($0)", author: marco.id, created: start, body: "imported \($0)") })
    }

    func testAnImportIntoAnEncryptedRoomIsRefusedAndOneSwitchedOnMidwayStopsThere() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Import", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        let source = try open(room, as: ann, follows: false)
        // Switched on after two comments went: the third is not posted.
        var switchFailure: Error?
        let switchAfterTwo = { (posted: Int) in
            guard posted == 2 else { return }
            do { try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm) } catch { switchFailure = error }
        }
        XCTAssertThrowsError(try source.importComments(of: threadFile(5), progress: switchAfterTwo)) { error in
            XCTAssertTrue("\(error)".contains("end-to-end encrypted") && "\(error)".contains("stopped after 2 of 5"), "\(error)")
        }
        XCTAssertNil(switchFailure)
        XCTAssertEqual(try plaintext(from: ann, in: room, readBy: bo), [])
        XCTAssertEqual(try bo.other.messageBodies(roomID: room).filter { $0.hasPrefix("imported") }, ["imported 1", "imported 2"])
        // Into a room encrypted already: refused, nothing posted.
        let other = try bo.other.createRoom(name: "Secret import", preset: .publicChat, initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": Self.megolm]])
        try ann.other.join(other)
        XCTAssertThrowsError(try open(other, as: ann, follows: false).importComments(of: threadFile(2))) { error in
            XCTAssertTrue("\(error)".contains("end-to-end encrypted") && "\(error)".contains("nothing was posted"), "\(error)")
        }
        XCTAssertEqual(try bo.other.messageBodies(roomID: other).filter { $0.hasPrefix("imported") }, [])
    }

    func testAnEncryptedRoomOpensReadOnlyWithItsEncryptedEventsInPlace() throws {
        let server = try server
        let bo = try registerUser("bo", on: server)
        let ann = try registerUser("ann", on: server)
        let room = try bo.other.createRoom(name: "Secret", preset: .publicChat, initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": Self.megolm]])
        try ann.other.join(room)
        let first = try bo.other.send(roomID: room, content: ciphertext(3), type: "m.room.encrypted")
        let second = try bo.other.send(roomID: room, content: ciphertext(4), type: "m.room.encrypted")

        let source = try open(room, as: ann, follows: false)
        XCTAssertEqual(source.sendingHeld, MatrixEncryption.notice)
        let rows = (source.openedComments as! ArrayCommentStore).comments.filter { $0.body == MatrixEncryptedEvent.body }
        XCTAssertEqual(rows.map(\.id), [first, second])
        XCTAssertEqual(source.send(comment(by: ann, "no")), .failed(MatrixEncryption.refusal))
        // The `post` verb too.
        XCTAssertThrowsError(try source.post("nor this", transactionID: "c-post")) { error in
            XCTAssertTrue("\(error)".contains("end-to-end encrypted") && "\(error)".contains("nothing was posted"), "\(error)")
        }
        let lines = screen(source)
        XCTAssertTrue(lines[0].contains("Secret") && lines[0].contains("🔒 encrypted"), "\(lines)")
        XCTAssertEqual(lines.filter { $0.contains("🔒 encrypted — cannot be read yet") }.count, 2, "\(lines)")
        XCTAssertEqual(try plaintext(from: ann, in: room, readBy: bo), [])
    }

    func testAnEncryptedPinnedPostSaysItIsEncrypted() throws {
        let server = try server
        let bo = try registerUser("bo", on: server)
        let ann = try registerUser("ann", on: server)
        let room = try bo.other.createRoom(name: "Pinned secret", preset: .publicChat, initialState: [
            ["type": "m.room.encryption", "state_key": "", "content": Self.megolm]])
        let post = try bo.other.send(roomID: room, content: ciphertext(5), type: "m.room.encrypted")
        try bo.other.sendState(roomID: room, type: "m.room.pinned_events", content: ["pinned": [post]])
        let after = try bo.other.send(roomID: room, content: ciphertext(6), type: "m.room.encrypted")
        try ann.other.join(room)
        let source = try open(room, as: ann, follows: false)
        XCTAssertEqual(source.thread.body, MatrixEncryptedEvent.body)
        let rows = (source.openedComments as! ArrayCommentStore).comments.filter { $0.body == MatrixEncryptedEvent.body }
        XCTAssertEqual(rows.map(\.id), [after], "the post is the header, not a row")
    }

    func testEncryptedEventsComeInPlaceFromOlderPagesAndFromTheOfflineCopy() throws {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("History", on: server)
        try bo.other.sendText(roomID: room, body: "post")
        try bo.other.sendState(roomID: room, type: "m.room.encryption", content: Self.megolm)
        let old = try (0..<3).map { try bo.other.send(roomID: room, content: ciphertext(200 + $0), type: "m.room.encrypted") }
        for n in 0..<MatrixThreadSource.pageSize { try bo.other.sendText(roomID: room, body: "filler \(n)") }
        let environment = temporaryDataEnvironment()
        let source = try open(room, as: ann, environment: environment)
        // Back-paginated from Synapse: the older encrypted events, each a row in place.
        var older: [Comment] = []
        for _ in 0..<5 where !older.contains(where: { $0.id == old[0] }) {
            source.loadOlderComments()
            let updates = try collectUpdates(from: source) { $0.contains { if case .olderComments = $0 { true } else { false } } }
            for case .olderComments(let page, _) in updates { older = page + older }
        }
        XCTAssertEqual(older.filter { $0.body == MatrixEncryptedEvent.body }.map(\.id), old)
        // One more while open, kept in the offline copy: reopened offline, its row is there. A
        // message saying the same in plaintext follows it: only the real row is drawn dim and italic.
        let recent = try bo.other.send(roomID: room, content: ciphertext(300), type: "m.room.encrypted")
        let spoof = try bo.other.send(roomID: room, content: [
            "msgtype": "m.text", "body": "🔒 encrypted — cannot be read yet", "format": "org.matrix.custom.html",
            "formatted_body": "🔒 <em>encrypted — cannot be read yet</em>"], type: "m.room.message")
        let arrived = try collectUpdates(from: source) { $0.flatMap(\.appended).contains { $0.id == spoof } }
        XCTAssertEqual(placeholderStyles(source, after: arrived), [true, false], "live")
        source.stop()
        let address = try XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)"))
        let unreachable = MatrixClient(homeserver: try XCTUnwrap(URL(string: "http://127.0.0.1:9")), accessToken: "none")
        let offline = try MatrixThreadSource(client: unreachable, address: address, me: ann.account.userID, environment: environment,
                                             follows: false)
        let rows = (offline.openedComments as! ArrayCommentStore).comments.suffix(2)
        XCTAssertEqual(rows.first, Comment(id: recent, author: bo.account.userID, created: try XCTUnwrap(rows.first?.created),
                                           body: MatrixEncryptedEvent.body))
        XCTAssertEqual(placeholderStyles(offline), [true, false], "from the offline copy")
    }

    /// For each row on screen saying `🔒 encrypted — cannot be read yet`, top to bottom, whether
    /// it is drawn dim and italic throughout (a placeholder's style).
    private func placeholderStyles(_ source: MatrixThreadSource, after updates: [ThreadUpdate] = []) -> [Bool] {
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 24)
        app.wallTime = Date()
        app.reduceMotion = true
        app.receive(updates)
        let buffer = app.render().buffer
        return buffer.trimmedLines.indices.filter { buffer.trimmedLines[$0].contains("encrypted — cannot be read yet") }.map { row in
            let cells = (FeedLayout.bodyIndent..<60).map { buffer[$0, row] }.filter { $0.text != " " && !$0.text.isEmpty }
            return !cells.isEmpty && cells.allSatisfy { $0.style.attributes.isSuperset(of: [.dim, .italic]) }
        }
    }
}
