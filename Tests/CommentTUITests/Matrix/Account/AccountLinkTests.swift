import Foundation
import ThreadModel
import XCTest
@testable import CommentTUI

/// What an account's answers tell home: a room that changed is posted; a long poll that ends
/// with nothing new costs the loop nothing (no rows re-sent, no cache written).
final class AccountLinkTests: XCTestCase {
    private func summaryPosts(_ mailbox: ClientMailbox) -> [[ThreadSummary]] {
        summaryPosts(mailbox.take())
    }

    private func summaryPosts(_ messages: [ClientMailbox.Message]) -> [[ThreadSummary]] {
        messages.compactMap { if case .summaries(_, let rows) = $0 { rows } else { nil } }
    }

    func testOnlyAnswersThatChangeARoomReachHome() throws {
        let mailbox = try ClientMailbox()
        let account = MatrixAccounts.Account(userID: "@ann:a.org", homeserver: "http://127.0.0.1:9", accessToken: "t", deviceID: "D")
        let link = AccountLink(account: account, client: MatrixClient(homeserver: URL(string: account.homeserver)!, accessToken: "t"),
                               environment: [:], usesCache: false, mailbox: mailbox)
        _ = mailbox.take()
        let room = SyncAnswer.joined(state: [SyncAnswer.state("m.room.name", ["name": "Lobby"])],
                                     timeline: [SyncAnswer.message("$1", from: "@bo:a.org", "hello", ts: 1_000)],
                                     counts: SyncAnswer.counts(1, 0))
        try link.accountSynced(SyncAnswer.answer(join: ["!r:a.org": room], nextBatch: "s1"))
        XCTAssertEqual(summaryPosts(mailbox).map { $0.map(\.name) }, [["Lobby"]])
        // Long polls that end empty: only the token moves.
        for n in 2...5 { try link.accountSynced(SyncAnswer.answer(nextBatch: "s\(n)")) }
        XCTAssertEqual(summaryPosts(mailbox).count, 0)
        try link.accountSynced(SyncAnswer.answer(join: ["!r:a.org": SyncAnswer.joined(counts: SyncAnswer.counts(2, 1))], nextBatch: "s6"))
        XCTAssertEqual(summaryPosts(mailbox).first?.first?.unread, 2)
    }

    func testAfterTheFirstWindowTheWholeListIsPostedWithItsCountsThoughNoRoomChanged() throws {
        let mailbox = try ClientMailbox()
        let account = MatrixAccounts.Account(userID: "@ann:a.org", homeserver: "http://127.0.0.1:9", accessToken: "t", deviceID: "D")
        let link = AccountLink(account: account, client: MatrixClient(homeserver: URL(string: account.homeserver)!, accessToken: "t"),
                               environment: [:], usesCache: false, mailbox: mailbox)
        _ = mailbox.take()
        let message = SyncAnswer.message("$1", from: "@bo:a.org", "hello", ts: 1_000)
        let name = SyncAnswer.state("m.room.name", ["name": "Lobby"])
        let joined = SyncAnswer.member("@ann:a.org", "Ann")
        link.list(firstWindow: ["rooms": ["!r:a.org": ["required_state": [name, joined], "timeline": [message], "notification_count": 0]],
                                "lists": ["home": ["count": 3]]])
        let windowed = mailbox.take()
        XCTAssertEqual(summaryPosts(windowed).first?.map(\.countsPending), [true])
        XCTAssertTrue(windowed.contains { if case .roomsComing(_, 2) = $0 { true } else { false } }, "two more rooms coming")
        // The whole list: the same room, with no unread (as the window said, by chance).
        try link.accountSynced(SyncAnswer.answer(join: ["!r:a.org": SyncAnswer.joined(state: [name], timeline: [message],
                                                                                     counts: SyncAnswer.counts(0, 0))],
                                                 nextBatch: "s1"))
        let whole = mailbox.take()
        XCTAssertEqual(summaryPosts(whole).first?.map(\.countsPending), [false], "its counts came, though they did not change")
        XCTAssertTrue(whole.contains { if case .roomsComing(_, nil) = $0 { true } else { false } })
    }

    func testARoomOnlyTheFirstWindowListedIsGoneOnceTheWholeListCame() throws {
        let mailbox = try ClientMailbox()
        let account = MatrixAccounts.Account(userID: "@ann:a.org", homeserver: "http://127.0.0.1:9", accessToken: "t", deviceID: "D")
        let link = AccountLink(account: account, client: MatrixClient(homeserver: URL(string: account.homeserver)!, accessToken: "t"),
                               environment: [:], usesCache: false, mailbox: mailbox)
        func room(_ name: String) -> JSONValue {
            ["required_state": [SyncAnswer.state("m.room.name", .object(["name": .string(name)])), SyncAnswer.member("@ann:a.org", "Ann")],
             "timeline": [SyncAnswer.message("$\(name)", from: "@bo:a.org", "hi", ts: 1_000)]]
        }
        link.list(firstWindow: ["rooms": ["!kept:a.org": room("Kept"), "!left:a.org": room("Left")]])
        XCTAssertEqual(summaryPosts(mailbox).last?.map(\.name).sorted(), ["Kept", "Left"])
        // Left meanwhile: the initial sync, whole, has the one room.
        try link.accountSynced(SyncAnswer.answer(join: ["!kept:a.org": SyncAnswer.joined(state: [SyncAnswer.state("m.room.name", ["name": "Kept"])])],
                                                 nextBatch: "s1"))
        XCTAssertEqual(summaryPosts(mailbox).last?.map(\.name), ["Kept"])
    }
}
