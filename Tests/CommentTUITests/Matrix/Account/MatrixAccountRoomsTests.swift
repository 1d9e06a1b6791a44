import Foundation
import ThreadModel
import XCTest
@testable import CommentTUI

/// What home knows of an account's rooms, from sync answers built here: the first answer, then
/// incremental ones carrying only what changed.
final class MatrixAccountRoomsTests: XCTestCase {
    private let me = "@ann:a.org"
    private typealias S = SyncAnswer

    private func rooms(_ answers: JSONValue...) -> MatrixAccountRooms {
        var rooms = MatrixAccountRooms(account: me)
        for answer in answers { rooms.apply(sync: answer) }
        return rooms
    }

    /// The first answer: a named public room, a direct room named after its hero, an invite.
    private var initial: JSONValue {
        S.answer(
            join: [
                "!pub:a.org": S.joined(
                    summary: ["m.joined_member_count": 3, "m.invited_member_count": 0],
                    state: [S.state("m.room.name", ["name": "Lobby"]), S.state("m.room.join_rules", ["join_rule": "public"]),
                            S.member("@bo:a.org", "Bo")],
                    timeline: [S.message("$1", from: "@bo:a.org", "hello all", ts: 1_000_000)],
                    counts: S.counts(1, 0)),
                "!dm:a.org": S.joined(
                    summary: ["m.heroes": ["@cy:b.org"], "m.joined_member_count": 2, "m.invited_member_count": 0],
                    state: [S.member("@cy:b.org", "Cy"), S.state("m.room.join_rules", ["join_rule": "invite"])],
                    timeline: [S.message("$2", from: "@cy:b.org", "psst", ts: 2_000_000)],
                    counts: S.counts(1, 1)),
            ],
            invite: ["!inv:a.org": [
                S.state("m.room.name", ["name": "Plans"]),
                S.member("@di:a.org", "Di"),
                S.member(me, "Ann", membership: "invite", sender: "@di:a.org", ts: 3_000_000),
            ]],
            accountData: [["type": "m.direct", "content": ["@cy:b.org": ["!dm:a.org"]]]])
    }

    func testTheFirstAnswerListsJoinedRoomsAndInvitesNewestFirst() {
        let summaries = rooms(initial).summaries
        XCTAssertEqual(summaries.map(\.name), ["Plans", "Cy", "Lobby"])
        XCTAssertEqual(summaries.map(\.key), [.room(account: me, roomID: "!inv:a.org"), .room(account: me, roomID: "!dm:a.org"),
                                              .room(account: me, roomID: "!pub:a.org")])
        let (invite, direct, lobby) = (summaries[0], summaries[1], summaries[2])
        XCTAssertEqual(invite.invite, ThreadSummary.Invite(inviter: "Di"))
        XCTAssertEqual(invite.activity, Date(timeIntervalSince1970: 3000))
        XCTAssertNil(invite.preview)
        XCTAssertEqual(direct.preview, "psst")
        XCTAssertEqual(direct.author, "Cy")
        XCTAssertEqual(direct.activity, Date(timeIntervalSince1970: 2000))
        XCTAssertEqual([direct.unread, direct.highlights], [1, 1])
        XCTAssertTrue(direct.isDirect && direct.isPrivate)
        XCTAssertNil(direct.invite)
        XCTAssertEqual(lobby.preview, "hello all")
        XCTAssertEqual(lobby.author, "Bo")
        XCTAssertFalse(lobby.isDirect || lobby.isPrivate || lobby.isEncrypted)
        XCTAssertEqual([lobby.unread, lobby.highlights], [1, 0])
    }

    func testAnIncrementalAnswerChangesOnlyWhatItCarries() {
        var rooms = rooms(initial)
        // A new message in the lobby: no state, no summary, only the notification count.
        rooms.apply(sync: S.answer(join: ["!pub:a.org": S.joined(
            timeline: [S.message("$3", from: "@eve:c.org", "news", ts: 4_000_000)], counts: S.counts(2, nil))]))
        var lobby = try! XCTUnwrap(rooms.summary(roomID: "!pub:a.org"))
        XCTAssertEqual(lobby.name, "Lobby", "the name stays though the answer does not repeat it")
        XCTAssertEqual(lobby.preview, "news")
        XCTAssertEqual(lobby.author, "@eve:c.org", "a sender with no member event known is named by id")
        XCTAssertEqual([lobby.unread, lobby.highlights], [2, 0], "a count the answer leaves out keeps the last")
        XCTAssertEqual(rooms.summaries.first?.name, "Lobby", "newest activity first")
        XCTAssertEqual(rooms.summary(roomID: "!dm:a.org")?.unread, 1, "a room not in the answer keeps everything")
        // The reader's receipt: the server says zero.
        rooms.apply(sync: S.answer(join: ["!pub:a.org": S.joined(counts: S.counts(0, 0))]))
        lobby = try! XCTUnwrap(rooms.summary(roomID: "!pub:a.org"))
        XCTAssertEqual([lobby.unread, lobby.highlights], [0, 0])
        XCTAssertEqual(lobby.preview, "news", "an answer with an empty timeline keeps the preview")
        // Renamed, and a display name learnt later names the earlier preview's author.
        rooms.apply(sync: S.answer(join: ["!pub:a.org": S.joined(
            timeline: [S.state("m.room.name", ["name": "Hall"]), S.member("@eve:c.org", "Eve")])]))
        lobby = try! XCTUnwrap(rooms.summary(roomID: "!pub:a.org"))
        XCTAssertEqual([lobby.name, lobby.author], ["Hall", "Eve"])
    }

    func testAcceptedInvitesBecomeJoinedAndLeftRoomsGo() {
        var rooms = rooms(initial)
        rooms.apply(sync: S.answer(join: ["!inv:a.org": S.joined(
            summary: ["m.joined_member_count": 2],
            state: [S.state("m.room.name", ["name": "Plans"]), S.member("@di:a.org", "Di")],
            timeline: [S.member(me, "Ann", ts: 5_000_000)])]))
        let joined = try! XCTUnwrap(rooms.summary(roomID: "!inv:a.org"))
        XCTAssertNil(joined.invite)
        XCTAssertEqual(joined.activity, Date(timeIntervalSince1970: 5000), "no message yet: the newest event's time")
        rooms.apply(sync: S.answer(leave: ["!inv:a.org", "!dm:a.org"]))
        XCTAssertEqual(rooms.roomIDs, ["!pub:a.org"])
        // Invited again after leaving: an invite again.
        rooms.apply(sync: S.answer(invite: ["!dm:a.org": [S.member(me, nil, membership: "invite", sender: "@cy:b.org", isDirect: true)]]))
        let again = try! XCTUnwrap(rooms.summary(roomID: "!dm:a.org"))
        XCTAssertEqual(again.invite, ThreadSummary.Invite(inviter: "@cy:b.org"))
        XCTAssertEqual(again.name, "@cy:b.org", "named after the inviter, the one member known")
        XCTAssertTrue(again.isDirect, "the invite says is_direct")
        XCTAssertNil(again.activity, "an invite without a time, given none, has none")
        // Given when the answer came, an invite without a time of its own is dated then, and stays so.
        let reinvite = S.answer(invite: ["!q:a.org": [S.member(me, nil, membership: "invite", sender: "@cy:b.org")]])
        rooms.apply(sync: reinvite, at: Date(timeIntervalSince1970: 6000))
        rooms.apply(sync: reinvite, at: Date(timeIntervalSince1970: 7000))
        XCTAssertEqual(rooms.summary(roomID: "!q:a.org")?.activity, Date(timeIntervalSince1970: 6000))
    }

    func testRoomNamesFollowTheSpec() {
        func name(heroes: [String], joined: Int?, invited: Int? = 0, state: [JSONValue] = []) -> String {
            var summary: [String: JSONValue] = ["m.heroes": .array(heroes.map { .string($0) })]
            if let joined { summary["m.joined_member_count"] = .number(Double(joined)) }
            if let invited { summary["m.invited_member_count"] = .number(Double(invited)) }
            let members = ["@bo:a.org": "Bo", "@cy:a.org": "Cy", "@di:a.org": "Di"].map { S.member($0.key, $0.value) }
            return rooms(S.answer(join: ["!r:a.org": S.joined(summary: .object(summary), state: members + state)]))
                .summary(roomID: "!r:a.org")!.name
        }
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 2), "Bo")
        XCTAssertEqual(name(heroes: ["@bo:a.org", "@cy:a.org"], joined: 2, invited: 1), "Bo and Cy")
        XCTAssertEqual(name(heroes: ["@bo:a.org", "@cy:a.org", "@di:a.org"], joined: 4), "Bo, Cy and Di")
        XCTAssertEqual(name(heroes: ["@bo:a.org", "@cy:a.org"], joined: 40), "Bo, Cy and 37 others")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 3), "Bo and 1 other")
        XCTAssertEqual(name(heroes: ["@zed:a.org"], joined: 2), "@zed:a.org", "no member event: the user id")
        XCTAssertEqual(name(heroes: [], joined: 1), "Empty room")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 1), "Empty room (was Bo)")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: nil, invited: nil), "Bo", "no counts: the heroes are all")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 2, state: [S.state("m.room.canonical_alias", ["alias": "#hall:a.org"])]),
                       "#hall:a.org")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 2, state: [
            S.state("m.room.canonical_alias", ["alias": "#hall:a.org"]), S.state("m.room.name", ["name": ""])]),
                       "#hall:a.org", "an empty name is none")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 2, state: [S.state("m.room.canonical_alias", ["alias": "hall"])]),
                       "Bo", "an alias that is not one is ignored")
        XCTAssertEqual(name(heroes: ["@bo:a.org"], joined: 3, state: [S.member("@bo:b.org", "Bo")]),
                       "Bo (@bo:a.org) and 1 other", "two members with one display name are told apart by id")
        // Without a summary (no lazy loading), the members known.
        XCTAssertEqual(rooms(S.answer(join: ["!r:a.org": S.joined(state: [S.member("@cy:a.org", "Cy"), S.member(me, "Ann"),
                                                                          S.member("@bo:a.org", "Bo")])]))
            .summary(roomID: "!r:a.org")?.name, "Bo and Cy")
    }

    func testThePreviewShowsWhatTheFeedWouldAndNeverCiphertext() {
        let bo = "@bo:a.org"
        func preview(_ timeline: [JSONValue]) -> ThreadSummary {
            rooms(S.answer(join: ["!r:a.org": S.joined(state: [S.member(bo, "Bo")], timeline: timeline)])).summary(roomID: "!r:a.org")!
        }
        let spoiler = preview([S.message("$1", from: bo, "the killer is the butler", ts: 1000, extra: [
            "format": "org.matrix.custom.html", "formatted_body": "the killer is <span data-mx-spoiler>the butler</span>"])])
        XCTAssertEqual(spoiler.preview, "the killer is ||the butler||", "from formatted_body: the spoiler stays marked")
        XCTAssertEqual(preview([S.message("$1", from: bo, "waves", ts: 1000, msgtype: "m.emote")]).preview, "\\* Bo waves")
        XCTAssertEqual(preview([S.message("$1", from: bo, "build passed", ts: 1000, msgtype: "m.notice")]).preview, "build passed")
        let secret = "AwgAEpABqOCAm8OPg0MZ3d0Yc9tD8A1Pb0xSZg"
        let encrypted = preview([S.message("$0", from: bo, "older", ts: 500),
                                 S.event("m.room.encrypted", "$1", from: bo, ts: 1000, content: [
                                     "algorithm": "m.megolm.v1.aes-sha2", "ciphertext": .string(secret), "session_id": "s"])])
        XCTAssertEqual(encrypted.preview, MatrixEncryptedEvent.body)
        XCTAssertEqual(encrypted.activity, Date(timeIntervalSince1970: 1))
        XCTAssertEqual(preview([S.message("$1", from: bo, "regrettable", ts: 1000),
                                S.event("m.room.redaction", "$2", from: bo, ts: 2000, content: ["redacts": "$1"])]).preview,
                       MatrixEventReader.deleted)
        XCTAssertEqual(preview([S.event("m.room.message", "$1", from: bo, ts: 1000, content: [:])]).preview, MatrixEventReader.deleted)
        let edited = preview([S.message("$1", from: bo, "teh typo", ts: 1000),
                              S.message("$2", from: bo, "* the typo", ts: 2000, extra: [
                                  "m.new_content": ["msgtype": "m.text", "body": "the typo fixed"],
                                  "m.relates_to": ["rel_type": "m.replace", "event_id": "$1"]])])
        XCTAssertEqual(edited.preview, "the typo fixed")
        XCTAssertEqual(edited.activity, Date(timeIntervalSince1970: 1), "an edit is no newer message")
        // A reaction or another event type changes nothing.
        XCTAssertEqual(preview([S.message("$1", from: bo, "hi", ts: 1000),
                                S.event("m.reaction", "$2", from: bo, ts: 2000, content: [
                                    "m.relates_to": ["rel_type": "m.annotation", "event_id": "$1", "key": "👍"]])]).preview, "hi")
    }

    func testMarkersTypingAndJoinRulesComeFromTheRoom() {
        var rooms = rooms(S.answer(join: ["!r:a.org": S.joined(
            state: [S.member("@bo:a.org", "Bo"), S.state("m.room.encryption", ["algorithm": "m.megolm.v1.aes-sha2"]),
                    S.state("m.room.join_rules", ["join_rule": "public"])],
            ephemeral: [["type": "m.typing", "content": ["user_ids": ["@bo:a.org", .string(me), "@zed:a.org", 7]]]],
            accountData: [["type": "m.fully_read", "content": ["event_id": "$9"]]])]))
        var room = try! XCTUnwrap(rooms.summary(roomID: "!r:a.org"))
        XCTAssertEqual(room.typing, ["Bo", "@zed:a.org"], "the reader is never listed as typing")
        XCTAssertTrue(room.isEncrypted)
        XCTAssertFalse(room.isPrivate)
        XCTAssertEqual(rooms.fullyRead(roomID: "!r:a.org"), "$9")
        rooms.apply(sync: S.answer(join: ["!r:a.org": S.joined(
            timeline: [S.state("m.room.join_rules", ["join_rule": "knock"]), S.state("m.room.encryption", [:])],
            ephemeral: [["type": "m.typing", "content": ["user_ids": []]]])]))
        room = try! XCTUnwrap(rooms.summary(roomID: "!r:a.org"))
        XCTAssertEqual(room.typing, [])
        XCTAssertTrue(room.isPrivate)
        XCTAssertTrue(room.isEncrypted, "encryption is never switched off")
        // A room whose join rule was never seen counts as private: a notification names no text.
        XCTAssertTrue(self.rooms(S.answer(join: ["!q:a.org": S.joined()])).summary(roomID: "!q:a.org")!.isPrivate)
    }

    func testAHostileAnswerIsBoundedAndNeverTrusted() {
        let huge = String(repeating: "é", count: 100_000)
        let long = String(repeating: "é", count: 30_000)
        var members = (0..<2000).map { S.member("@m\($0):a.org", "M\($0)") }
        members.append(S.state("m.room.name", .object(["name": .string(huge)])))
        var rooms = rooms(S.answer(join: [
            "!r:a.org": S.joined(summary: ["m.heroes": "not a list", "m.joined_member_count": "5"],
                                 state: members,
                                 timeline: [S.message("$1", from: "@m1:a.org", long, ts: 1000), .string("junk"), 42,
                                            S.message("$2", from: "not a user", "spoofed", ts: 9000)],
                                 counts: ["notification_count": "7", "highlight_count": -3]),
            "not a room id": S.joined(),
            "!bad\u{1B}[2J:a.org": S.joined(),
            "!array:a.org": ["summary": [], "state": "x", "timeline": ["events": "nope"], "unread_notifications": []],
        ], accountData: [["type": "m.direct", "content": ["@bo:a.org": ["!r:a.org", 5, "bogus"]]]]))
        XCTAssertEqual(rooms.roomIDs, ["!array:a.org", "!r:a.org"], "only room ids shaped as the spec says")
        let room = try! XCTUnwrap(rooms.summary(roomID: "!r:a.org"))
        XCTAssertLessThanOrEqual(room.name.utf8.count, rooms.limits.nameBytes)
        XCTAssertTrue(room.name.hasPrefix("éé"))
        let preview = try! XCTUnwrap(room.preview)
        XCTAssertLessThanOrEqual(preview.utf8.count, rooms.limits.previewBytes)
        XCTAssertTrue(preview.hasPrefix("éé"), "cut, not refused")
        XCTAssertEqual(room.activity, Date(timeIntervalSince1970: 1), "an event from no user is skipped")
        XCTAssertEqual([room.unread, room.highlights], [0, 0], "counts that are not counts are ignored")
        XCTAssertTrue(room.isDirect)
        XCTAssertLessThanOrEqual(rooms.memberCount(roomID: "!r:a.org"), rooms.limits.membersPerRoom)
        // A message too long for any server to have accepted is not read at all.
        rooms.apply(sync: S.answer(join: ["!r:a.org": S.joined(timeline: [
            S.message("$3", from: "@m1:a.org", String(repeating: "x", count: 70_000), ts: 2000)])]))
        XCTAssertEqual(rooms.summary(roomID: "!r:a.org")?.preview, MatrixRoomPreviewReader.tooLong)
        // The number of rooms kept is bounded.
        var few = MatrixAccountRooms(account: me)
        few.limits.rooms = 2
        few.apply(sync: S.answer(join: ["!a:x": S.joined(), "!b:x": S.joined(), "!c:x": S.joined()],
                                 invite: ["!d:x": [S.member(me, nil, membership: "invite", sender: "@bo:a.org")]]))
        XCTAssertEqual(few.roomIDs.count, 2)
    }
}
