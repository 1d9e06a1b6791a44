import XCTest
import ThreadModel
@testable import CommentTUI

final class MatrixTimelineTests: XCTestCase {
    private func message(_ id: String, _ sender: String, _ body: String, ts: Int, txn: String? = nil) -> JSONValue {
        var event: [String: JSONValue] = ["type": "m.room.message", "event_id": .string(id), "sender": .string(sender),
                                          "origin_server_ts": .number(Double(ts)),
                                          "content": ["msgtype": "m.text", "body": .string(body)]]
        if let txn { event["unsigned"] = ["transaction_id": .string(txn)] }
        return .object(event)
    }

    private func edit(_ id: String, of target: String, _ sender: String, _ body: String, ts: Int) -> JSONValue {
        ["type": "m.room.message", "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
         "content": ["msgtype": "m.text", "body": .string("* " + body),
                     "m.new_content": ["msgtype": "m.text", "body": .string(body)],
                     "m.relates_to": ["rel_type": "m.replace", "event_id": .string(target)]]]
    }

    private func timeline() -> MatrixTimeline {
        var members = MatrixMembers(me: "@ann:h.org")
        members.update(["@ann:h.org": "Ann", "@bo:h.org": "Bo"])
        return MatrixTimeline(members: members)
    }

    func testOurEchoConfirmsTheSendUnderTheAppsIDAndIsNotAppendedTwice() {
        var line = timeline()
        line.willSend(transactionID: "c-1")
        let updates = line.applyNewer([message("$e1", "@ann:h.org", "hi", ts: 1000, txn: "c-1"), message("$e2", "@bo:h.org", "yo", ts: 2000)])
        XCTAssertEqual(updates.map(summary), ["confirmed c-1", "appended $e2"])
        XCTAssertEqual(line.eventID(forComment: "c-1"), "$e1")
        XCTAssertTrue(line.applyNewer([message("$e1", "@ann:h.org", "hi", ts: 1000, txn: "c-1")]).isEmpty, "a repeat is ignored")
    }

    func testAReplyMentionsTheRealSenderNotAnImportedAuthorNorUs() {
        var line = timeline()
        var imported = message("$i", "@bo:h.org", "from the file", ts: 1000)
        if case .object(var event) = imported, case .object(var content)? = event["content"] {
            content[MatrixImportOrigin.key] = ["thread": "t", "id": "c1", "author": "carol", "author_name": "Carol", "created_ms": 5]
            event["content"] = .object(content)
            imported = .object(event)
        }
        _ = line.applyNewer([imported, message("$o", "@ann:h.org", "ours", ts: 2000), message("$b", "@bo:h.org", "yo", ts: 3000)])
        XCTAssertEqual(line.replyMention(ofEvent: "$i", me: "@ann:h.org"), "@bo:h.org", "who sent it, not @carol:imported")
        XCTAssertNil(line.replyMention(ofEvent: "$o", me: "@ann:h.org"), "not ourselves")
        XCTAssertEqual(line.replyMention(ofEvent: "$b", me: "@ann:h.org"), "@bo:h.org")
        XCTAssertNil(line.replyMention(ofEvent: "$unknown", me: "@ann:h.org"))
    }

    func testOnlyEventsAppliedAsNewerProveASyncWindowJoinsTheTimeline() {
        var line = timeline()
        line.adopt([Comment(id: "$kept", author: "@ann:h.org", created: Date(timeIntervalSince1970: 1), body: "from the copy")])
        _ = line.applyNewer([message("$synced", "@bo:h.org", "from a sync", ts: 2000)])
        XCTAssertTrue(line.hasApplied(eventID: "$kept"), "known: not handed out twice")
        XCTAssertFalse(line.wasAppliedAsNewer(message("$kept", "@ann:h.org", "from the copy", ts: 1000)),
                       "known from the copy only: the copy's position may be older than it")
        XCTAssertTrue(line.wasAppliedAsNewer(message("$synced", "@bo:h.org", "from a sync", ts: 2000)))
    }

    func testAnImportsEditTimeNeverHidesTheAuthorsLaterEdit() {
        var line = timeline()
        var imported = message("$i", "@bo:h.org", "as in the file", ts: 5000)
        if case .object(var event) = imported, case .object(var content)? = event["content"] {
            // A file's edit time far in the future (a skewed clock, or anyone's text).
            content[MatrixImportOrigin.key] = ["thread": "t", "id": "c1", "author": "bo", "author_name": "Bo", "created_ms": 1000,
                                               "posted_as_author": true, "edited_ms": 250_000_000_000_000]
            event["content"] = .object(content)
            imported = .object(event)
        }
        _ = line.applyNewer([imported])
        XCTAssertEqual(line.changed["$i"]?.edited, Date(timeIntervalSince1970: 5), "edited, no later than the event itself")
        let updates = line.applyNewer([edit("$e", of: "$i", "@bo:h.org", "fixed in the room", ts: 6000)])
        XCTAssertEqual(updates.map(summary), ["edited $i: fixed in the room"])
    }

    func testEditsApplyOnlyFromTheAuthorAndTheNewestWins() {
        var line = timeline()
        _ = line.applyNewer([message("$a", "@bo:h.org", "first", ts: 1000)])
        let updates = line.applyNewer([edit("$x", of: "$a", "@ann:h.org", "hijacked", ts: 2000),
                                       edit("$y", of: "$a", "@bo:h.org", "second", ts: 3000)])
        XCTAssertEqual(updates.map(summary), ["edited $a: second"])
        XCTAssertEqual(line.changed["$a"]?.edited, Date(timeIntervalSince1970: 3))
    }

    func testAnEditArrivingBeforeItsTargetIsKeptUntilTheTargetLoads() {
        var line = timeline()
        // Live: the edit of an old comment not loaded yet.
        XCTAssertTrue(line.applyNewer([edit("$y", of: "$old", "@bo:h.org", "fixed", ts: 5000)]).isEmpty)
        // Paging back: newest first; an older edit on the page must not win over the newer one.
        let page = line.applyOlder([edit("$w", of: "$old", "@bo:h.org", "stale", ts: 4000),
                                    message("$old", "@bo:h.org", "typo", ts: 1000)], state: [])
        XCTAssertEqual(page.comments.map(\.body), ["fixed"])
        XCTAssertNotNil(page.comments.first?.edited)
    }

    func testRedactionsShowAsDeletedWhereverTheCommentIs() {
        var line = timeline()
        _ = line.applyNewer([message("$a", "@bo:h.org", "oops", ts: 1000)])
        let updates = line.applyNewer([["type": "m.room.redaction", "sender": "@bo:h.org", "event_id": "$r", "redacts": "$a", "content": [:]]])
        XCTAssertEqual(updates.map(summary), ["edited $a: (deleted)"])
        let older = line.applyOlder([["type": "m.room.redaction", "sender": "@bo:h.org", "event_id": "$r2", "content": ["redacts": "$b"]],
                                     message("$b", "@bo:h.org", "secret", ts: 500)], state: [])
        XCTAssertEqual(older.comments.map(\.body), ["(deleted)"])
    }

    func testAMalformedMessageIsShownAsUnreadableNotDropped() {
        var line = timeline()
        let updates = line.applyNewer([["type": "m.room.message", "event_id": "$m", "sender": "@bo:h.org", "origin_server_ts": 1,
                                        "content": ["msgtype": "m.text", "body": 42]],
                                       ["type": "m.room.message", "sender": "@bo:h.org"],
                                       message("$ok", "@bo:h.org", "after", ts: 2)])
        XCTAssertEqual(updates.map(summary), ["appended $m, $ok"])
        guard case .commentsAppended(let appended)? = updates.first else { return XCTFail("nothing appended") }
        XCTAssertEqual(appended.first?.body, "(unreadable message)")
    }

    func testMemberEventsRenameUsers() {
        var line = timeline()
        let updates = line.applyNewer([["type": "m.room.member", "state_key": "@bo:h.org", "sender": "@bo:h.org", "event_id": "$m",
                                        "content": ["membership": "join", "displayname": "Bo B"]]])
        XCTAssertEqual(updates.map(summary), ["users bo=Bo B"])
    }

    private func encrypted(_ id: String, _ sender: String, ts: Int, session: String = "s1", replacing target: String? = nil,
                           relation: String = "m.replace") -> JSONValue {
        var content: [String: JSONValue] = ["algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "AwgAEm4k+made/up", "session_id": .string(session),
                                            "sender_key": "key", "device_id": "DEV"]
        if let target { content["m.relates_to"] = ["rel_type": .string(relation), "event_id": .string(target)] }
        return ["type": "m.room.encrypted", "event_id": .string(id), "sender": .string(sender), "origin_server_ts": .number(Double(ts)),
                "content": .object(content)]
    }

    func testEncryptedEventsShowInPlaceKeptByReferenceAndTheSwitchHoldsSendingOnce() {
        var line = timeline()
        let switchOn: JSONValue = ["type": "m.room.encryption", "state_key": "", "event_id": "$on", "sender": "@bo:h.org",
                                   "origin_server_ts": 1500, "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
        let applied = line.applyNewer([message("$a", "@bo:h.org", "plain", ts: 1000), switchOn, encrypted("$x", "@bo:h.org", ts: 2000),
                                       encrypted("$fix", "@bo:h.org", ts: 2500, replacing: "$x"),
                                       encrypted("$like", "@bo:h.org", ts: 2600, replacing: "$x", relation: "m.annotation"),
                                       encrypted("$ref", "@bo:h.org", ts: 2700, replacing: "$x", relation: "m.reference"),
                                       encrypted("$in", "@bo:h.org", ts: 2800, replacing: "$x", relation: "m.thread"),
                                       message("$b", "@bo:h.org", "plain again", ts: 3000)])
        // The encrypted thread reply counts in its root's post (its relation is in the clear).
        guard case .postSummaryChanged("$x", let post)? = applied.last else { return XCTFail("no post summary: \(applied.map(summary))") }
        XCTAssertEqual(post?.replyCount, 1)
        let updates = Array(applied.dropLast())
        XCTAssertEqual(updates.map(summary), ["appended $a", "held: \(MatrixEncryption.notice)", "appended $on, $x, $b"],
                       "an encrypted edit, reaction or reference has no row of its own; a thread's message has one in its post")
        XCTAssertEqual(line.encryptedEvents["$like"]?.relation?.target, "$x", "kept by reference")
        XCTAssertEqual(line.encryptedEvents["$ref"]?.relation?.type, "m.reference")
        guard updates.count == 3, case .commentsAppended(let rows) = updates[2] else { return XCTFail("no rows") }
        XCTAssertEqual(rows[2].body, "plain again")
        XCTAssertTrue(rows[0].body.contains("switched on end-to-end encryption"), rows[0].body)
        XCTAssertEqual(rows[1], Comment(id: "$x", author: "@bo:h.org", created: Date(timeIntervalSince1970: 2), body: MatrixEncryptedEvent.body))
        XCTAssertTrue(line.isEncrypted)
        XCTAssertEqual(line.encryptedEvents["$x"]?.sessionID, "s1", "kept to be decrypted in place")
        XCTAssertEqual(line.encryptedEvents["$fix"]?.replaces, "$x")
        // Once only, in state too; older pages show theirs in place; a redacted one is deleted.
        XCTAssertTrue(line.applyState([switchOn]).isEmpty)
        let older = line.applyOlder([encrypted("$old", "@bo:h.org", ts: 500),
                                     ["type": "m.room.encrypted", "event_id": "$gone", "sender": "@bo:h.org", "origin_server_ts": 400,
                                      "content": [:], "unsigned": ["redacted_because": [:]]]], state: [])
        XCTAssertEqual(older.comments.map(\.body), ["(deleted)", MatrixEncryptedEvent.body])
        var fresh = timeline()
        XCTAssertEqual(fresh.applyState([switchOn]).map(summary), ["held: \(MatrixEncryption.notice)"], "the state alone switches it on")
    }

    private func summary(_ update: ThreadUpdate) -> String {
        switch update {
        case .commentsAppended(let list): "appended " + list.map(\.id).joined(separator: ", ")
        case .commentEdited(let comment): "edited \(comment.id): \(comment.body)"
        case .sendConfirmed(let id): "confirmed \(id)"
        case .usersChanged(let users): "users " + users.map { "\($0.handle)=\($0.name)" }.joined(separator: ", ")
        case .sendingHeld(let notice): "held: \(notice)"
        default: "\(update)"
        }
    }
}
