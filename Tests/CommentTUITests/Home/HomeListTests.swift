import XCTest
import ScrollEngine
@testable import CommentTUI

/// Home's list as a model: its order, filter, selection, jumps and questions.
final class HomeListTests: XCTestCase {
    private typealias F = HomeFixture

    func testRowsAreNewestActivityFirstWithNoneLastAndTiesByName() {
        let list = F.list([
            F.room("beta", minutesAgo: 5), F.room("Quiet", minutesAgo: nil), F.room("alpha", minutesAgo: 5),
            F.room("Newest", minutesAgo: 1), F.room("Also quiet", minutesAgo: nil), F.room("Ötzi", minutesAgo: 5),
        ])
        XCTAssertEqual(list.rowNames, ["Newest", "alpha", "beta", "Ötzi", "Also quiet", "Quiet"],
                       "ties by name ignoring case and accents; threads with no activity last")
        XCTAssertEqual(list.selected?.name, "Newest", "the newest is selected at first")
    }

    func testTypingFiltersFuzzilyIgnoringAccentsRankedAsTheMentionList() {
        let list = F.list([
            F.room("Coffee and friends edition", minutesAgo: 1), F.room("Weekly Cafe notes", minutesAgo: 2),
            F.room("Cafeteria plans", minutesAgo: 3), F.room("Café Society", minutesAgo: 4), F.room("Board", minutesAgo: 5),
        ])
        list.type("cafe")
        XCTAssertEqual(list.rowNames, ["Weekly Cafe notes", "Cafeteria plans", "Café Society", "Coffee and friends edition"],
                       "as @mentions rank: the start of the name or of a word in it (newer activity first), then the letters in order")
        XCTAssertEqual(list.selected?.name, "Weekly Cafe notes", "the best match is selected")
        XCTAssertEqual(list.rows.first { list.summaries[$0.index].name == "Café Society" }?.highlights, [0..<4],
                       "the matched part, accented as written")
        list.press(KeyPress(.backspace))
        XCTAssertEqual(list.filter, "caf")
        list.press(.ctrl("u"))
        XCTAssertEqual(list.filter, "")
        XCTAssertEqual(list.rowNames.count, 5)
        list.type("CAFÉ SOC")
        XCTAssertEqual(list.rowNames, ["Café Society"])
        list.press(KeyPress(.escape))
        XCTAssertEqual(list.filter, "", "Esc clears the filter")
    }

    func testAnExactNameRanksFirstWhateverItsActivity() {
        let list = F.list([F.room("Boardroom", minutesAgo: 1), F.room("Board", minutesAgo: 9)])
        list.type("board")
        XCTAssertEqual(list.rowNames, ["Board", "Boardroom"])
    }

    func testNoMatchSaysSoOnEnter() {
        let list = F.list(F.numbered(3))
        list.type("zzz")
        XCTAssertTrue(list.rows.isEmpty)
        XCTAssertNil(list.selectedKey)
        XCTAssertEqual(list.press(KeyPress(.enter)), .message("no thread matches zzz"))
    }

    func testAPasteGoesIntoTheFilterOnOneLineWithoutControls() {
        let list = F.list([F.room("Café Society", minutesAgo: 1), F.room("Board", minutesAgo: 2)])
        list.paste("caf\u{1B}[31m\né")
        XCTAssertEqual(list.filter, "caf[31m é")
        list.press(.ctrl("u"))
        list.paste("Board")
        XCTAssertEqual(list.rowNames, ["Board"])
    }

    func testTheSelectionFollowsItsThreadWhenRowsMove() {
        let list = F.list(F.numbered(6))
        list.press(KeyPress(.down))
        list.press(KeyPress(.down))
        XCTAssertEqual(list.selected?.name, "Room 02")
        // Room 04 gets a comment: it goes to the top, Room 02 one row down, still selected.
        list.update(F.room("Room 04", minutesAgo: 0, unread: 1))
        XCTAssertEqual(list.rowNames.prefix(4), ["Room 04", "Room 00", "Room 01", "Room 02"])
        XCTAssertEqual(list.selected?.name, "Room 02")
        XCTAssertEqual(list.selectedRow, 3)
        // The whole list again, in another order (a catch-up): the selection keeps its thread.
        list.replaceAll(F.numbered(6).reversed().enumerated().map { F.room($1.name, minutesAgo: Double($0)) })
        XCTAssertEqual(list.selected?.name, "Room 02")
        XCTAssertEqual(list.selectedRow, 3)
        // Its thread gone (left), the selection stays on the row it was on.
        list.remove(F.key("Room 02"))
        XCTAssertEqual(list.selectedRow, 3)
        XCTAssertEqual(list.selected?.name, "Room 01")
    }

    func testUntilTheReaderChoosesTheSelectionStaysOnTheFirstRowAsThreadsArrive() {
        // A start with an account: the demo alone, then the account's rooms, all newer.
        let demo = F.room("Demo", minutesAgo: 1000)
        let list = F.list([demo])
        list.replaceAll([demo] + F.numbered(8))
        XCTAssertEqual(list.selected?.name, "Room 00", "the newest, not the demo at the bottom")
        XCTAssertEqual(list.model.contentOffset, 0, "the newest on screen")
        list.update(F.room("Room 05", minutesAgo: 0))
        XCTAssertEqual(list.selected?.name, "Room 05", "still the first row")
        // Chosen: from then on the selection follows its thread.
        list.press(KeyPress(.down))
        list.update(F.room("Room 07", minutesAgo: -1))
        XCTAssertEqual(list.selected?.name, "Room 00")
        XCTAssertEqual(list.selectedRow, 2)
    }

    func testAnUpdateKeepsASelectionThatWasOnScreenOnScreen() {
        // 4 whole rows show (8 of the 9 list rows); the selection on the last of them.
        let list = F.list(F.numbered(10), rows: 10)
        for _ in 0..<3 { list.press(KeyPress(.down)) }
        XCTAssertEqual(list.model.contentOffset, 0)
        list.update(F.room("Room 09", minutesAgo: 0))
        XCTAssertEqual(list.selected?.name, "Room 03")
        XCTAssertEqual(list.selectedRow, 4)
        XCTAssertEqual(list.model.contentOffset, 1, "the list moved just enough to keep it whole on screen")
    }

    func testKeysMoveTheSelectionAndScrollItIntoView() {
        let list = F.list(F.numbered(20), rows: 11)  // 10 list rows: 5 threads
        for _ in 0..<6 { list.press(KeyPress(.down)) }
        XCTAssertEqual(list.selectedRow, 6)
        XCTAssertEqual(list.model.contentOffset, 4, "row 6 (content rows 12–13) ends on the bottom row")
        list.press(KeyPress(.pageDown))
        XCTAssertEqual(list.selectedRow, 10, "a page is the threads on screen less one")
        list.press(KeyPress(.end))
        XCTAssertEqual(list.selectedRow, 19)
        XCTAssertEqual(list.model.contentOffset, 30)
        list.press(KeyPress(.pageUp))
        XCTAssertEqual(list.selectedRow, 15)
        list.press(KeyPress(.home))
        XCTAssertEqual(list.selectedRow, 0)
        XCTAssertEqual(list.model.contentOffset, 0)
        list.press(KeyPress(.up))
        XCTAssertEqual(list.selectedRow, 0, "no row above the first")
    }

    func testNextUnreadAndNextMentionCycleInListOrderAfterAGivenThread() {
        let list = F.list([
            F.room("A", minutesAgo: 1), F.room("B", minutesAgo: 2, unread: 3), F.room("C", minutesAgo: 3, unread: 1, highlights: 1),
            F.room("D", minutesAgo: 4), F.room("E", minutesAgo: 5, inviter: "Ann"), F.room("F", minutesAgo: 6, unread: 2, highlights: 2),
        ])
        XCTAssertEqual(list.nextUnread(after: F.key("A")), F.key("B"))
        XCTAssertEqual(list.nextUnread(after: F.key("B")), F.key("C"))
        XCTAssertEqual(list.nextUnread(after: F.key("C")), F.key("E"), "an invite waits for the reader too")
        XCTAssertEqual(list.nextUnread(after: F.key("F")), F.key("B"), "after the last it starts over at the top")
        XCTAssertEqual(list.nextUnread(after: nil), F.key("B"))
        XCTAssertEqual(list.nextMention(after: F.key("A")), F.key("C"))
        XCTAssertEqual(list.nextMention(after: F.key("C")), F.key("F"))
        XCTAssertEqual(list.nextMention(after: F.key("F")), F.key("C"))
        // The filter does not hide threads from the jumps (they work from inside a thread).
        list.type("a")
        XCTAssertEqual(list.nextMention(after: F.key("C")), F.key("F"))
        let one = F.list([F.room("A", minutesAgo: 1, highlights: 1), F.room("B", minutesAgo: 2)])
        XCTAssertNil(one.nextMention(after: F.key("A")), "no other thread has one")
        XCTAssertEqual(one.nextMention(after: F.key("B")), F.key("A"))
    }

    func testLeavingAsksFirstAndAnyKeyButYesKeepsTheRoom() {
        let list = F.list([F.room("Café Society", minutesAgo: 1), F.room("Board", minutesAgo: 2)])
        XCTAssertNil(list.press(.alt("l")))
        XCTAssertEqual(list.question?.prompt, "Leave Café Society? y/n")
        XCTAssertEqual(list.press(KeyPress(.character("n"))), .message("kept Café Society"))
        XCTAssertNil(list.question)
        XCTAssertEqual(list.filter, "", "the answer is no part of the filter")
        list.press(.alt("l"))
        XCTAssertEqual(list.press(KeyPress(.down)), .message("kept Café Society"), "any other key is a no")
        XCTAssertEqual(list.selected?.name, "Café Society", "and does nothing else")
        list.press(.alt("l"))
        XCTAssertEqual(list.press(KeyPress(.character("y"))), .leave(F.key("Café Society")))
        list.press(.alt("l"))
        XCTAssertEqual(list.press(KeyPress(.enter)), .leave(F.key("Café Society")), "Enter says yes too")
    }

    func testInvitesAreAcceptedOrDeclinedAfterAsking() {
        let list = F.list([F.room("Invited", minutesAgo: 1, inviter: "Ann"), F.room("Joined", minutesAgo: 2)])
        XCTAssertEqual(list.press(KeyPress(.enter)), .acceptInvite(F.key("Invited")), "Enter on an invite accepts it")
        XCTAssertEqual(list.press(.alt("y")), .acceptInvite(F.key("Invited")))
        XCTAssertNil(list.press(.alt("x")))
        XCTAssertEqual(list.question?.prompt, "Decline the invite to Invited? y/n")
        XCTAssertEqual(list.press(KeyPress(.character("y"))), .declineInvite(F.key("Invited")))
        list.press(.alt("l"))
        XCTAssertEqual(list.question?.kind, .decline, "leaving an invite is declining it")
        list.press(KeyPress(.escape))
        list.press(KeyPress(.down))
        XCTAssertEqual(list.press(.alt("y")), .message("Joined is no invite"))
        XCTAssertEqual(list.press(KeyPress(.enter)), .open(F.key("Joined")))
    }

    func testAFileOrTheDemoCannotBeLeft() {
        let list = F.list([ThreadSummary(key: .demo, name: "Demo"), ThreadSummary(key: .file(path: "/t/a.jsonl"), name: "A file")])
        XCTAssertEqual(list.press(.alt("l")), .message("only a room can be left"))
        XCTAssertNil(list.question)
    }

    func testKeysHomeDoesNotBindAreLeftToTheCoordinator() {
        let list = F.list(F.numbered(2))
        XCTAssertFalse(list.handle(.ctrl("c")).taken)
        XCTAssertFalse(list.handle(.alt("h")).taken)
        XCTAssertFalse(list.handle(KeyPress(.function(1))).taken)
    }
}
