import XCTest
@testable import CommentTUI

/// The key map: one table drives dispatch, the F1 page and the manual's key table.
final class KeyMapTests: XCTestCase {
    /// The manual's key table (docs/Manual.md), as (keys, action) rows.
    private func manualKeyTable() throws -> [KeyHelp] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let manual = try String(contentsOf: root.appendingPathComponent("docs/Manual.md"), encoding: .utf8)
        let lines = manual.components(separatedBy: "\n")
        let heading = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("### Keys") }, "the manual has a Keys section")
        let rows = lines[(heading + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
        return rows.map { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return KeyHelp(cells.first ?? "", cells.dropFirst().joined(separator: "|"))
        }
    }

    func testEveryBindingIsInTheManualsKeyTableAndViceVersa() throws {
        let manual = try manualKeyTable()
        let expected = KeyMap.helpLines.map { "| \($0.keys) | \($0.action) |" }.joined(separator: "\n")
        for line in KeyMap.helpLines {
            XCTAssertTrue(manual.contains(line), "the manual's key table lacks \(line); the table should read:\n\(expected)")
        }
        for row in manual {
            XCTAssertTrue(KeyMap.helpLines.contains(row), "the manual lists \(row), which no binding has; the table should read:\n\(expected)")
        }
        XCTAssertEqual(manual, KeyMap.helpLines, "same order as the F1 page")
    }

    func testNoKeyIsBoundTwiceInOneContext() {
        for context in KeyContext.allCases {
            var seen: [KeyPattern: KeyAction] = [:]
            for binding in KeyMap.bindings where binding.context == context {
                for key in binding.keys {
                    XCTAssertNil(seen[key], "\(key) is bound twice in \(context)")
                    seen[key] = binding.action
                }
            }
        }
    }

    func testEveryContextHasBindingsAndEveryHiddenBindingIsMeantToBe() {
        for context in KeyContext.allCases {
            XCTAssertTrue(KeyMap.bindings.contains { $0.context == context }, "\(context) has no keys")
        }
        // Typing, Tab, Backspace, Delete, cancelling a chord and the crash test need no line of
        // their own; Home and End in a draft share the feed's (`arrows, Home/End`); nor do a
        // filter's Backspace, Ctrl-W, Ctrl-U and Esc (as in a draft, a search) and home's Home and End.
        // The verification panel's keys are written in the panel, under what they answer.
        let hidden = KeyMap.bindings.filter { $0.help == nil }.map(\.action)
        XCTAssertEqual(Set(hidden.map { "\($0)" }), [
            "edit(CommentTUI.ComposerEdit.typeCharacter)", "edit(CommentTUI.ComposerEdit.tab)",
            "edit(CommentTUI.ComposerEdit.deleteBackward)", "edit(CommentTUI.ComposerEdit.deleteForward)",
            "cancelChord", "crashTest",
            "edit(CommentTUI.ComposerEdit.moveToLineStart(extending: false))", "edit(CommentTUI.ComposerEdit.moveToLineEnd(extending: false))",
            "home(CommentTUI.HomeCommand.first)", "home(CommentTUI.HomeCommand.last)",
            "home(CommentTUI.HomeCommand.deleteFilterCharacter)", "home(CommentTUI.HomeCommand.deleteFilterWord)",
            "home(CommentTUI.HomeCommand.clearFilter)", "home(CommentTUI.HomeCommand.cancel)", "switcher(CommentTUI.HomeCommand.cancel)",
            "verification(CommentTUI.VerificationCommand.yes)", "verification(CommentTUI.VerificationCommand.no)",
            "verification(CommentTUI.VerificationCommand.proceed)", "verification(CommentTUI.VerificationCommand.cancel)",
            "switcher(CommentTUI.HomeCommand.deleteFilterCharacter)", "switcher(CommentTUI.HomeCommand.deleteFilterWord)",
            "switcher(CommentTUI.HomeCommand.clearFilter)",
        ])
    }

    func testContextsAreTriedMostSpecificFirstAndShiftFallsBack() {
        let enter = KeyPress(.enter)
        XCTAssertEqual(KeyMap.actions(for: enter, in: [.mentionList, .feed, .composer]), [.insertMention, .send],
                       "Enter inserts a mention, and sends when the list declines")
        XCTAssertEqual(KeyMap.actions(for: KeyPress(.home, .shift), in: [.feed, .composer]),
                       [.edit(.moveToLineStart(extending: true)), .homeOrFeedTop, .edit(.moveToLineStart(extending: false))],
                       "Shift-Home selects; without its own binding it would act as Home (the feed's top, or the line's start)")
        XCTAssertEqual(KeyMap.actions(for: KeyPress(.character("Q"), .shift), in: [.feed, .composer]), [.edit(.typeCharacter)])
        XCTAssertEqual(KeyMap.actions(for: KeyPress(.up, .shift), in: [.feed, .composer]).first, .scrollFeed(.rowUp))
        XCTAssertEqual(KeyMap.actions(for: .ctrl("q"), in: [.feed, .composer]), [])
    }

    func testTheHelpPageFitsAnEightyByTwentyFourTerminal() {
        // Smaller terminals scroll the page; this one shows every line at once, none wrapped.
        let page = Pager(.keys, title: "Keys", columns: 80, rows: 24)
        XCTAssertEqual(page.text.lines.count, KeyMap.helpLines.count, "no line wraps")
        XCTAssertLessThanOrEqual(page.text.lines.count, page.rows)
    }
}
