import Foundation
import XCTest
@testable import ScrollEngine
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The composer as a user drives it: keys in, draft, screen and thread out.
final class ComposerFlowTests: XCTestCase {
    /// Feeds terminal bytes (keys as a terminal sends them).
    @discardableResult
    func send(_ bytes: String, to app: CommentApp) -> [AppCommand] {
        var decoder = InputDecoder()
        var commands: [AppCommand] = []
        for event in decoder.feed(Array(bytes.utf8)) + decoder.flush() {
            if let command = app.handle(event) { commands.append(command) }
        }
        return commands
    }

    static let shiftLeft = "\u{1B}[1;2D", left = "\u{1B}[D", ctrlUnderscore = "\u{1F}", altUnderscore = "\u{1B}_"
    static let ctrlX = "\u{18}", ctrlJ = "\n", enter = "\r", backspace = "\u{7F}", altUp = "\u{1B}[1;3A"

    func testReadlineKillAndYank() {
        let (app, _) = ThreadFixture.numbered().open()
        send("hello big world", to: app)
        send("\u{17}", to: app)                 // Ctrl-W
        XCTAssertEqual(app.draft, "hello big ")
        send("\u{01}", to: app)                 // Ctrl-A
        send("\u{0B}", to: app)                 // Ctrl-K
        XCTAssertEqual(app.draft, "")
        send("\u{19}", to: app)                 // Ctrl-Y
        XCTAssertEqual(app.draft, "hello big ")
        send("\u{1B}b\u{1B}d", to: app)         // Alt-B, Alt-D
        XCTAssertEqual(app.draft, "hello  ")
    }

    func testHomeAndEndMoveInTheDraftAndScrollTheFeedWhenItIsEmpty() {
        let (app, _) = ThreadFixture.numbered().open()
        send("one two", to: app)
        send("\u{1B}[H", to: app)               // Home
        send("<", to: app)
        send("\u{1B}[F", to: app)               // End
        send(">", to: app)
        XCTAssertEqual(app.draft, "<one two>")
        XCTAssertNil(app.message, "Home and End are bound in the draft")
        // With nothing typed they are the feed's ends.
        send(String(repeating: Self.backspace, count: 9), to: app)
        send("\u{1B}[H", to: app)
        XCTAssertEqual(app.scrollPhase, .animating, "Home on an empty draft goes to the top")
    }

    func testShiftArrowsSelectAndControlXFormatsTheSelection() {
        let (app, screen) = ThreadFixture.numbered().open()
        send("make it bold", to: app)
        send(String(repeating: Self.shiftLeft, count: 4), to: app)
        XCTAssertEqual(app.draftDocument.selectedOffsets, 8..<12)
        send(Self.ctrlX + "b", to: app)
        XCTAssertEqual(app.draftMarkdown, "make it **bold**")
        screen.show(app)
        let row = screen.screen.rows - 2
        // "› make it bold": the formatted word is bold, the rest plain; nothing shows markers.
        XCTAssertEqual(screen.plainLines[row], "› make it bold")
        XCTAssertTrue(screen.screen[10, row].style.attributes.contains(.bold))
        XCTAssertFalse(screen.screen[4, row].style.attributes.contains(.bold))
    }

    func testFormatAppliesToTheNextTypedText() {
        let (app, _) = ThreadFixture.numbered().open()
        send("a ", to: app)
        send(Self.ctrlX + "i", to: app)
        send("slanted", to: app)
        send(Self.ctrlX + "i", to: app)
        send(" b", to: app)
        XCTAssertEqual(app.draftMarkdown, "a *slanted* b")
    }

    func testTypedMarkdownIsShownStyledWithDimMarkers() {
        let (app, screen) = ThreadFixture.numbered().open()
        send("**hi** ~~x~~", to: app)
        screen.show(app)
        let row = screen.screen.rows - 2
        XCTAssertEqual(screen.plainLines[row], "› **hi** ~~x̶~~")
        XCTAssertTrue(screen.screen[2, row].style.attributes.contains(.dim), "a marker is dimmed")
        XCTAssertTrue(screen.screen[4, row].style.attributes.contains(.bold), "typed bold shows bold")
        XCTAssertEqual(app.draftMarkdown, "**hi** ~~x~~", "typed Markdown is sent as typed")
    }

    func testUndoAndRedo() {
        let (app, _) = ThreadFixture.numbered().open()
        send("one two", to: app)
        send(Self.ctrlUnderscore, to: app)
        XCTAssertEqual(app.draft, "one ")
        send(Self.ctrlUnderscore, to: app)
        XCTAssertEqual(app.draft, "")
        send(Self.altUnderscore, to: app)
        XCTAssertEqual(app.draft, "one ")
    }

    func testNewLinesGrowTheComposerToAThirdThenItScrolls() {
        let (app, screen) = ThreadFixture.numbered().open(rows: 12)
        send("a" + Self.ctrlJ + "b" + "\u{1B}\r" + "c" + Self.ctrlJ + "d" + Self.ctrlJ + "e", to: app)
        XCTAssertEqual(app.draft, "a\nb\nc\nd\ne")
        screen.show(app)
        // 12 rows: the composer takes at most 4, showing the caret's row last.
        XCTAssertEqual(Array(screen.plainLines[7...10]), ["↑ b", "  c", "  d", "  e"])
        XCTAssertEqual(screen.cursor, CursorPosition(column: 3, row: 10))
        send("\u{1B}[A\u{1B}[A", to: app)      // Up twice
        XCTAssertEqual(app.caretOffset, 5, "after the c")
    }

    func testSendPostsMarkdownAndFailureKeepsTheDraft() {
        let (app, screen) = ThreadFixture.numbered().open()
        var fails = true
        app.memorySource.sendFailure = { _ in fails ? "No space left on device" : nil }
        send("ship " + Self.ctrlX + "c" + "it" + Self.enter, to: app)
        XCTAssertEqual(app.draftMarkdown, "ship `it`")
        XCTAssertEqual(app.message, "not sent, draft kept: No space left on device")
        fails = false
        send(Self.enter, to: app)
        XCTAssertEqual(app.memorySource.sent.map(\.body), ["ship `it`"])
        XCTAssertTrue(app.draft.isEmpty)
        app.settle()
        screen.show(app)
        XCTAssertTrue(screen.plainLines.contains("   ship it"), "the feed scrolled to the sent comment: \(screen.plainLines)")
    }

    func testDraftIsSavedAfterAPauseAndRestored() throws {
        let (app, _) = ThreadFixture.numbered().open()
        var saved: [Data?] = []
        app.composer.save = { saved.append($0) }
        send("keep ", to: app)
        send(Self.ctrlX + "p" + "this", to: app)
        app.advance(to: app.now + 0.2)
        XCTAssertTrue(saved.isEmpty, "typing is not written at every key")
        XCTAssertNotNil(app.nextDeadline, "the loop wakes for the pending save")
        app.advance(to: app.now + 0.5)
        XCTAssertEqual(saved.count, 1)
        XCTAssertNil(app.nextDeadline, "nothing pending: the loop sleeps")

        let (restored, _) = ThreadFixture.numbered().open()
        try restored.composer.restore(XCTUnwrap(saved.last ?? nil))
        XCTAssertEqual(restored.composer.draft.markdown, "keep ||this||")
        XCTAssertEqual(restored.composer.draft.cursorOffset, 9)

        send(Self.enter, to: app)
        app.advance(to: app.now + 1)
        XCTAssertEqual(saved.count, 3)
        let sending = try XCTUnwrap(saved[1], "saved again before the send, marked with the comment's id")
        XCTAssertEqual(ComposerDocument.sendingID(inEncoded: sending), app.memorySource.sent.first?.id)
        XCTAssertNil(saved.last ?? Data(), "a sent draft is deleted")
    }

    func testQuitSavesAPendingDraftAtOnce() {
        let (app, _) = ThreadFixture.numbered().open()
        var saved: [Data?] = []
        app.composer.save = { saved.append($0) }
        send("x", to: app)
        app.prepareToExit()
        XCTAssertEqual(saved.count, 1)
    }

    func testReplyQuotesAndMentionsTheAuthor() {
        let (app, _) = ThreadFixture.numbered(3).open()
        send(Self.altUp, to: app)              // selects the newest comment in view
        let selected = app.comment(at: app.selectedCommentIndex ?? -1)
        send("\u{1B}r", to: app)
        let author = app.user(id: selected?.author ?? "")!
        XCTAssertEqual(app.draft, "> \(selected?.body ?? "")\n\n@\(author.handle) ")
        XCTAssertEqual(app.draftDocument.mentionedUserIDs, [author.id])
        send(Self.ctrlUnderscore, to: app)
        XCTAssertEqual(app.draft, "", "one undo takes the whole reply start back")
    }

    func testControlXControlEHandsTheDraftToTheEditorAndTakesItBack() {
        let (app, _) = ThreadFixture.numbered().open()
        send("draft", to: app)
        XCTAssertEqual(send(Self.ctrlX + "\u{05}", to: app), [.editExternally("draft")])
        app.finishExternalEdit(.success("edited for @bo"), at: app.now)
        XCTAssertEqual(app.draft, "edited for @bo")
        XCTAssertEqual(app.draftDocument.mentionedUserIDs, ["u2"], "a known handle comes back as a mention")
        struct EditorFailed: Error, CustomStringConvertible { var description: String { "the editor 'vi' exited with status 1" } }
        app.finishExternalEdit(.failure(EditorFailed()), at: app.now)
        XCTAssertEqual(app.draft, "edited for @bo")
        XCTAssertEqual(app.message, "draft unchanged: the editor 'vi' exited with status 1")
    }

    func testPasteIsSanitizedAndFast() {
        let (app, _) = ThreadFixture.numbered().open()
        _ = app.handle(.paste("a\u{1B}[2Jb\u{202E}c\nd"))
        XCTAssertFalse(app.draft.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        XCTAssertTrue(app.draft.hasSuffix("c\nd"))
        let before = app.draft.count
        let big = String(repeating: "lorem ipsum dolor sit amet\n", count: 8_000)
        _ = app.handle(.paste(big))
        XCTAssertEqual(app.draft.count, before + big.count, "a 200 KB paste arrives whole")
        _ = app.render()
    }
}

extension ComposerDocument {
    /// The user ids of the draft's mention tokens, in order.
    var mentionedUserIDs: [String] {
        text.runs.compactMap { $0.attributes[CommentAttributes.MentionAttribute.self] }
    }
}

extension ComposerFlowTests {
    func testALongDraftShowsTheLinesAroundTheCaret() {
        let (app, screen) = ThreadFixture.numbered().open(rows: 12)
        _ = app.handle(.paste((0..<500).map { "line \($0)" }.joined(separator: "\n")))
        screen.show(app)
        XCTAssertEqual(Array(screen.plainLines[7...10]), ["↑ line 496", "  line 497", "  line 498", "  line 499"])
        send(String(repeating: "\u{1B}[A", count: 250), to: app)
        screen.show(app)
        XCTAssertEqual(Array(screen.plainLines[7...10]), ["↑ line 246", "  line 247", "  line 248", "  line 249"],
                       "the window follows the caret up")
        XCTAssertEqual(screen.cursor, CursorPosition(column: 10, row: 10))
        XCTAssertEqual(app.caretOffset, app.draft.components(separatedBy: "line 249")[0].count + 8)
    }
}

extension ComposerFlowTests {
    func testAClickInTheComposerPlacesTheCaret() {
        let (app, _) = ThreadFixture.numbered().open()
        send("hello world", to: app)
        let row = app.composerRect.row
        send("\u{1B}[<0;\(2 + 6 + 1);\(row + 1)M\u{1B}[<0;\(2 + 6 + 1);\(row + 1)m", to: app)
        XCTAssertEqual(app.caretOffset, 6, "before the w")
        send("big ", to: app)
        XCTAssertEqual(app.draft, "hello big world")
    }

    func testAFailedDraftSaveSaysSoAndTriesAgain() {
        let (app, _) = ThreadFixture.numbered().open()
        struct DiskFull: Error, CustomStringConvertible { var description: String { "No space left on device" } }
        var attempts = 0
        var full = true
        app.composer.save = { _ in
            attempts += 1
            if full { throw DiskFull() }
        }
        send("precious", to: app)
        app.advance(to: app.now + 1)
        XCTAssertEqual(attempts, 1)
        XCTAssertEqual(app.message, "draft not saved (kept in memory): No space left on device")
        XCTAssertEqual(app.draft, "precious")
        full = false
        app.advance(to: app.now + 10)
        XCTAssertEqual(attempts, 2, "retried")
        XCTAssertNil(app.nextDeadline)
    }

    func testAnUnreadableDraftFileIsSetAsideAndNamed() throws {
        let directory = try temporaryDirectory(self)
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: directory.appendingPathComponent("t.jsonl").path,
                                                   environment: ["XDG_DATA_HOME": directory.path]))
        let file = DraftFile(files)
        try file.save(Data("{\"version\": 1, \"runs\": [tru".utf8))
        let (app, _) = ThreadFixture.numbered().open()
        app.keepDraft(in: file)
        XCTAssertTrue(app.draft.isEmpty)
        let message = try XCTUnwrap(app.message)
        let aside = file.path + ".broken-1"
        XCTAssertTrue(message.hasPrefix("saved draft unreadable, set aside as \((aside as NSString).lastPathComponent) in \(directory.path)/"),
                      message)
        XCTAssertNotNil(FileManager.default.contents(atPath: file.path + ".broken-1"), "kept, not deleted")
        send("new", to: app)
        app.advance(to: app.now + 1)
        XCTAssertNotNil(try file.load(), "the new draft is saved again")
    }

    func testASavedDraftComesBackWhenTheThreadOpens() throws {
        let directory = try temporaryDirectory(self)
        let files = try XCTUnwrap(ThreadStateFiles(threadPath: directory.appendingPathComponent("t.jsonl").path,
                                                   environment: ["XDG_DATA_HOME": directory.path]))
        let (first, _) = ThreadFixture.numbered().open()
        first.keepDraft(in: DraftFile(files))
        send("half a thought about @bo", to: first)
        first.prepareToExit()
        let (second, _) = ThreadFixture.numbered().open()
        second.keepDraft(in: DraftFile(files))
        XCTAssertEqual(second.composer.draft.string, "half a thought about @bo")
        XCTAssertEqual(second.message, "draft restored")
    }
}

extension ComposerFlowTests {
    func testTheDraftIsSavedBeforeTheClientStops() throws {
        let (app, _) = ThreadFixture.numbered(2).open()
        var saved: [Data?] = []
        app.composer.save = { saved.append($0) }
        let pipe = try FileDescriptor.pipe()
        pipe.read.setNonBlockingAndCloseOnExec()
        var savesWhenStopped: Int?
        let loop = AppLoop(app: app, session: HeadlessScreen(columns: 40, rows: 12), input: pipe.read, signals: nil,
                           now: { 0 }, stopProcess: { savesWhenStopped = saved.count })
        try pipe.write.writeAll(Array("unsaved words\u{1A}".utf8))   // then Ctrl-Z at once
        while savesWhenStopped == nil { _ = try loop.runOnce() }
        XCTAssertEqual(savesWhenStopped, 1, "saved before the process stopped, not half a second later")
        pipe.read.close(); pipe.write.close()
    }

    func testEveryKeyFitsTheHelpAt80x24() {
        let (app, screen) = ThreadFixture.numbered().open(columns: 80, rows: 24)
        send("two\u{0A}lines\u{0A}of draft", to: app)
        send("\u{1B}OP", to: app)
        screen.show(app)
        for line in KeyMap.helpLines {
            XCTAssertTrue(screen.plainLines.contains { $0.contains(line.keys) && $0.contains(line.action) }, "\(line)")
        }
    }
}

extension ComposerFlowTests {
    func testAReplyIsNotFormattedByAPendingFormat() {
        let (app, _) = ThreadFixture.numbered(3).open()
        send(Self.ctrlX + "b", to: app)
        send(Self.altUp, to: app)
        send("\u{1B}r", to: app)
        XCTAssertFalse(app.draftMarkdown.contains("**"), app.draftMarkdown)
    }
}
