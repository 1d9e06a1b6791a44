import XCTest
@testable import CommentTUI
import CommentTUITestSupport
import ScrollEngine
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// What the feed's steps cost on the wire: the app drawn through the real ncurses backend into
/// a `tmpfile()` at 100x30, time moved as the loop moves it (a frame every 1/60 s while
/// anything moves, a second's pause between keys).
final class FeedStepBytesTests: XCTestCase {
    var output: UnsafeMutablePointer<FILE>!
    var input: UnsafeMutablePointer<FILE>!
    var screen: NCursesScreen!
    var app: CommentApp!
    var time = ScrollInstant.zero

    override func setUpWithError() throws {
        output = try XCTUnwrap(tmpfile())
        input = try XCTUnwrap(fopen("/dev/null", "r"))
        screen = try NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: false)
        screen.resize(columns: 100, rows: 30)
        app = ThreadFixture.numbered(80).open(columns: 100, rows: 30).0
        screen.present(app.render(), full: true)
    }

    override func tearDown() {
        screen.end()
        fclose(output)
        fclose(input)
    }

    private func frame() {
        app.advance(to: time)
        let frame = app.render()
        screen.present(frame, full: false)
        app.didPresent(frame)
    }

    /// Presses a key, draws the frames until the feed rests, then a second's pause; returns
    /// what was written.
    private func step(_ key: KeyPress) -> String {
        fflush(output)
        let start = ftell(output)
        _ = app.update(.key(key), at: time)
        frame()
        for _ in 0..<60 where app.nextDeadline.map({ $0.seconds < time.seconds + 0.5 }) ?? false {
            time = time + 1.0 / 60
            frame()
        }
        time = time + 1
        frame()
        fflush(output)
        let end = ftell(output)
        fseek(output, start, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: end - start)
        _ = fread(&bytes, 1, bytes.count, output)
        fseek(output, end, SEEK_SET)
        return String(decoding: bytes, as: UTF8.self)
    }

    func testARowStepWritesTheScrollTheNewRowAndTheScrollbarsRepairsOnly() {
        _ = step(.pageUp)
        let steps = (0..<15).map { _ in step(.ctrlUp) }
        for text in steps.dropFirst() {
            XCTAssertTrue(text.hasPrefix("\u{1B}[T"), "scrolled with SD, the margins kept: \(text.debugDescription)")
            XCTAssertTrue(text.hasSuffix("\u{1B}8"), "the caret restored: \(text.debugDescription)")
            XCTAssertFalse(text.contains("\u{1B}(B"), text.debugDescription)
        }
        // A blank row coming in costs the scroll (3), its track cell (11), the thumb's two ends
        // (12 each: the margins scroll the last column too) and the caret's return (2); with
        // numbered comments of three rows, the newest comment shown changes on the same step, so
        // the status bar's `comment i/N` changes too (its digits behind a move and an SGR: up to 16).
        let blank = steps.dropFirst().filter { $0.replacing(#/\x1B(\[[0-9;]*)?[A-Za-z0-9]/#, with: "").allSatisfy { "│┃0123456789".contains($0) } }
        XCTAssertGreaterThanOrEqual(blank.count, 3, steps.map(\.debugDescription).joined(separator: "\n"))
        for text in blank { XCTAssertLessThanOrEqual(text.utf8.count, 40 + 16, text.debugDescription) }
        let average = steps.dropFirst().map(\.utf8.count).reduce(0, +) / (steps.count - 1)
        XCTAssertLessThanOrEqual(average, 72, steps.map(\.debugDescription).joined(separator: "\n"))
    }
}
