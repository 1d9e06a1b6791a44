import XCTest
@testable import ScrollEngine
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

final class AppFlowTests: XCTestCase {
    static let start = ThreadFixture.start

    func show(_ app: CommentApp, on screen: HeadlessScreen) {
        screen.show(app)
        screen.screen._checkInvariants()
    }

    /// Types the bytes, then lets animations finish.
    func type(_ text: String, into app: CommentApp) {
        var decoder = InputDecoder()
        for event in decoder.feed(Array(text.utf8)) {
            _ = app.handle(event)
            app.settle()
        }
    }

    func testFirstScreenReadsLikeTheClient() {
        let (app, screen) = ThreadFixture.numbered(2).open()
        show(app, on: screen)
        // A short thread reads from the top; the title's escape shows as a placeholder.
        XCTAssertEqual(screen.plainLines, [
            " Hello ␛[2Jworld",
            " Ann @ann · 2025-04-17 10:00",
            "────────────────────────────────────────",
            " Bo 日本 @bo · 2025-04-17",
            "   comment number 1",
            "",
            " Ann @ann · 2025-04-17",
            "   comment number 2",
            "",
            "────────────────────────────────────────",
            "›",
            " @ann · test · idle · comment 2/2",
        ])
    }

    func testStatusBarAndComposerRows() {
        let (app, screen) = ThreadFixture.numbered(2).open()
        type("hi 日本", into: app)
        show(app, on: screen)
        XCTAssertEqual(screen.plainLines[10], "› hi 日本")
        XCTAssertEqual(screen.cursor, CursorPosition(column: 2 + 7, row: 10))
        XCTAssertEqual(screen.plainLines[11], " @ann · test · idle · comment 2/2")
    }

    func testPageKeysAndRowKeysScrollTheFeed() {
        let (app, screen) = ThreadFixture.numbered(20).open()
        show(app, on: screen)
        let bottom = app.feedOffset
        XCTAssertGreaterThan(bottom, 0, "opens at the newest comments")
        XCTAssertTrue(screen.plainLines.contains("   comment number 20"))
        let page = app.feedRect.height - 1
        type("\u{1B}[5~", into: app)
        XCTAssertEqual(app.feedOffset, bottom - page, "a page is the feed's height less one row")
        type("\u{1B}[1;5A", into: app)
        XCTAssertEqual(app.feedOffset, bottom - page - 1)
        type("\u{1B}[1;2B", into: app)
        XCTAssertEqual(app.feedOffset, bottom - page)
        type("\u{1B}[1;5H", into: app)
        XCTAssertEqual(app.feedOffset, 0)
        show(app, on: screen)
        XCTAssertEqual(screen.plainLines[3], " Bo 日本 @bo · 2025-04-17")
        type("\u{1B}[6~\u{1B}[1;5F", into: app)
        XCTAssertEqual(app.feedOffset, bottom)
    }

    func testWheelScrollsTheFeed() {
        let (app, _) = ThreadFixture.numbered(20).open()
        let bottom = app.feedOffset
        type("\u{1B}[<64;5;6M", into: app)
        XCTAssertEqual(app.feedOffset, bottom - ScrollConfiguration().wheelStep)
        type("\u{1B}[<65;5;6M", into: app)
        XCTAssertEqual(app.feedOffset, bottom)
    }

    func testF1ShowsTheKeysAndEscClosesThem() {
        let (app, screen) = ThreadFixture.numbered(2).open(columns: 80, rows: 24)
        type("\u{1B}OP", into: app)
        show(app, on: screen)
        XCTAssertTrue(screen.plainLines[0].hasPrefix(" Keys"))
        XCTAssertTrue(screen.plainLines.contains { $0.contains("Shift+drag") }, "every key fits an 80x24 terminal")
        XCTAssertTrue(screen.plainLines.contains { $0.contains("Ctrl-C, F10, Ctrl-D (empty)") && $0.contains("quit") })
        _ = app.handle(.key(KeyPress(.escape)))
        show(app, on: screen)
        XCTAssertFalse(screen.plainLines.contains { $0.contains("Keys") })
    }

    func testQuitKeys() {
        let (app, _) = ThreadFixture.numbered().open()
        XCTAssertEqual(app.handle(.key(.ctrl("c"))), .quit)
        XCTAssertEqual(app.handle(.key(KeyPress(.function(10)))), .quit)
        XCTAssertEqual(app.handle(.key(.ctrl("d"))), .quit, "Ctrl-D quits on an empty composer")
        type("x", into: app)
        XCTAssertNil(app.handle(.key(.ctrl("d"))), "but deletes when there is a draft")
        XCTAssertEqual(app.handle(.key(.ctrl("z"))), .suspend)
        XCTAssertEqual(app.handle(.key(.ctrl("l"))), .redrawAll)
    }

    func testEnterPostsAndFollowsTheBottom() {
        let (app, screen) = ThreadFixture.numbered(20).open()
        type("\u{1B}[1;5Hnew one\r", into: app)
        show(app, on: screen)
        XCTAssertEqual(app.allComments.last?.body, "new one")
        XCTAssertTrue(app.draft.isEmpty)
        XCTAssertEqual(app.feedOffset, app.feedBottomOffset)
        XCTAssertTrue(screen.plainLines.contains("   new one"))
    }

    func testTooSmallTerminalShowsANotice() {
        let (app, screen) = ThreadFixture.numbered().open(columns: 19, rows: 12)
        show(app, on: screen)
        XCTAssertTrue(screen.plainLines.contains { $0.contains("too small") && !$0.contains("␛") })
        app.resize(columns: 40, rows: 12)
        screen.resize(columns: 40, rows: 12)
        show(app, on: screen)
        XCTAssertFalse(screen.plainLines.contains { $0.contains("too small") })
    }

    func testResizeRewrapsAndKeepsTheBottom() {
        var thread = ThreadFixture.numbered(3)
        thread.add(Comment(id: "long", author: "u1", created: Self.start, body: String(repeating: "word ", count: 30)))
        let (app, screen) = thread.open(columns: 60, rows: 12)
        show(app, on: screen)
        app.resize(columns: 30, rows: 12)
        screen.resize(columns: 30, rows: 12)
        show(app, on: screen)
        XCTAssertEqual(app.feedOffset, app.feedBottomOffset)
        XCTAssertTrue(screen.plainLines.allSatisfy { DisplayWidth.width(of: $0) <= 30 })
        XCTAssertTrue(screen.plainLines.contains("   word word word word word"))
    }

    func testPartialFramesEqualAFullRedraw() {
        let (app, screen) = ThreadFixture.numbered(20).open()
        show(app, on: screen)
        for input in ["abc", "\u{1B}[5~", "日本", "\u{7F}", "\u{1B}[1;5A", "\u{1B}[<65;1;5M"] {
            type(input, into: app)
            show(app, on: screen)
            XCTAssertEqual(screen.screen, app.render().buffer)
        }
    }

    func testLoopRunsScriptedInputUntilEndOfInput() throws {
        let (app, screen) = ThreadFixture.numbered(20).open()
        let pipe = try FileDescriptor.pipe()
        try pipe.write.writeAll(Array("hey\u{1B}[5~".utf8))
        pipe.write.close()
        var clock = 0.0
        let loop = AppLoop(app: app, session: screen, input: pipe.read, signals: nil, now: { clock += 0.001; return clock })
        XCTAssertEqual(try loop.run(), .endOfInput)
        pipe.read.close()
        XCTAssertEqual(screen.plainLines[10], "› hey")
        XCTAssertLessThan(app.feedOffset, app.feedBottomOffset)
    }

    func testLoopQuitsOnCtrlC() throws {
        let (app, screen) = ThreadFixture.numbered().open()
        let pipe = try FileDescriptor.pipe()
        try pipe.write.writeAll([0x03])
        let loop = AppLoop(app: app, session: screen, input: pipe.read, signals: nil)
        XCTAssertEqual(try loop.run(), .quit)
        pipe.read.close(); pipe.write.close()
    }
}

final class AppLoopTests: XCTestCase {
    func makeLoop(clock: @escaping () -> Double) throws -> (AppLoop, CommentApp, HeadlessScreen, (read: FileDescriptor, write: FileDescriptor)) {
        let (app, screen) = ThreadFixture.numbered(5).open()
        let pipe = try FileDescriptor.pipe()
        pipe.read.setNonBlockingAndCloseOnExec()
        let loop = AppLoop(app: app, session: screen, input: pipe.read, signals: nil, now: clock,
                           wallClock: { Date(timeIntervalSince1970: 1_744_884_030) })
        return (loop, app, screen, pipe)
    }

    func testALoneEscapeWaitsForTheInjectedClockThenActs() throws {
        var clock = 100.0
        let (loop, app, _, pipe) = try makeLoop { clock }
        defer { pipe.read.close(); pipe.write.close() }
        _ = app.handle(.key(KeyPress(.function(1))))   // help open: Esc closes it
        XCTAssertTrue(app.showsHelp)
        XCTAssertEqual(loop.timeout(), 30, "nothing scheduled: the loop sleeps until relative times change")
        try pipe.write.writeAll([0x1B])
        XCTAssertNil(try loop.runOnce())
        XCTAssertTrue(app.showsHelp, "Esc may still be the start of a sequence")
        XCTAssertEqual(loop.timeout()!, InputDecoder.escapeTimeout, accuracy: 1e-9)
        clock += InputDecoder.escapeTimeout
        XCTAssertEqual(loop.timeout(), 0)
        XCTAssertNil(try loop.runOnce())
        XCTAssertFalse(app.showsHelp)
        XCTAssertEqual(loop.timeout(), 30, "idle again: only the minute wake-up")
    }

    func testAnEscapeSequenceSplitAcrossReadsIsOneKey() throws {
        var clock = 0.0
        let (loop, app, _, pipe) = try makeLoop { clock }
        defer { pipe.read.close(); pipe.write.close() }
        let bottom = app.feedOffset
        try pipe.write.writeAll([0x1B, 0x5B])
        XCTAssertNil(try loop.runOnce())
        clock += 0.01
        try pipe.write.writeAll(Array("1;5A".utf8))
        XCTAssertNil(try loop.runOnce())
        XCTAssertEqual(app.feedOffset, bottom - 1, "Ctrl-Up (one row, at once), not Esc then text")
        XCTAssertTrue(app.draft.isEmpty)
    }

    func testInputFasterThanTheFrameRateDrawsAtMostSixtyFramesASecond() throws {
        var clock = 10.0
        let (loop, _, screen, pipe) = try makeLoop { clock }
        defer { pipe.read.close(); pipe.write.close() }
        let start = screen.frameCount
        // 200 keystrokes a second for one second, each read on its own.
        for _ in 0..<200 {
            try pipe.write.writeAll(Array("x".utf8))
            XCTAssertNil(try loop.runOnce())
            clock += 0.005
            // Woken at the frame slot when it comes, as poll() would be.
            while let wait = loop.timeout(), wait <= 0.005, wait < 30, clock < 12 {
                clock += wait
                XCTAssertNil(try loop.runOnce())
                if wait == 0 { break }
            }
        }
        let frames = screen.frameCount - start
        let seconds = clock - 10
        XCTAssertLessThanOrEqual(Double(frames), seconds * 60 + 1, "\(frames) frames in \(seconds) s of fast input")
        XCTAssertGreaterThan(Double(frames), seconds * 40, "but still a frame every slot or so")
        XCTAssertTrue(screen.plainLines.contains { $0.hasSuffix(String(repeating: "x", count: 20)) }, "the last keystrokes are drawn: \(screen.plainLines)")
    }
}
