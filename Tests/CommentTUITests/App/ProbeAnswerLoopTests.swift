import Foundation
import XCTest
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

/// The loop takes the grapheme probe's answers from the input stream whenever they come: every
/// cursor position report before the probe's last answer (DA1) is the probe's, however late it
/// is read, and a key typed among them voids the probe instead of pairing samples with wrong
/// answers. Time is the injected clock; the terminal is a pipe.
final class ProbeAnswerLoopTests: XCTestCase {
    private var home = ""
    private var pipe: (read: FileDescriptor, write: FileDescriptor)!

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "probe-loop-\(UUID().uuidString)"
        pipe = try FileDescriptor.pipe()
        pipe.read.setNonBlockingAndCloseOnExec()
    }

    override func tearDown() {
        DisplayWidth.policy = .substitute
        pipe.read.close()
        pipe.write.close()
        try? FileManager.default.removeItem(atPath: home)
    }

    /// Where the loop keeps the probe's answer.
    private var cache: GraphemePolicyCache { GraphemePolicyCache(environment: ["HOME": home, "TERM": "fake"])! }

    /// A started loop (first frame drawn) whose probe was written at `sentAt` on `clock`.
    private func startLoop(clock: @escaping () -> Double, sentAt: Double) -> (AppLoop, CommentApp) {
        let (app, screen) = ThreadFixture.numbered(5).open()
        var probe = GraphemeProbe(samples: TerminalGraphemeProbe.samples, cache: cache)
        probe.sentAt = sentAt
        let loop = AppLoop(app: app, session: screen, input: pipe.read, signals: nil, now: clock,
                           wallClock: { Date(timeIntervalSince1970: 1_744_884_030) }, graphemeProbe: probe)
        loop.start()
        return (loop, app)
    }

    /// What a terminal that draws every cluster two columns wide answers (the cursor on row 5),
    /// with `typed` among the answers after the first `after` reports.
    private func answers(typing typed: String = "", after: Int = 0) -> String {
        let reports = GraphemeProbe(samples: TerminalGraphemeProbe.samples, cache: nil).reportCount
        var text = after == 0 ? typed : ""
        for n in 1...reports { text += "\u{1B}[5;3R" + (n == after ? typed : "") }
        return text + "\u{1B}[?62;22c"
    }

    private func send(_ text: String) throws { try pipe.write.writeAll(Array(text.utf8)) }

    func testAnswersReadLongAfterTheProbeAreStillItsAndNeverF3() throws {
        var clock = 100.0
        let (loop, app) = startLoop(clock: { clock }, sentAt: 99.5)
        // Answered in time, but read late: the client was stopped (Ctrl-Z) or slow to start.
        try send(answers())
        clock += 30
        XCTAssertNil(try loop.runOnce())
        XCTAssertFalse(app.showsScrollEvents, "no answer was read as a modified F3")
        XCTAssertFalse(loop.awaitsTerminalAnswers)
        XCTAssertTrue(DisplayWidth.policy.intact.contains(.joiner), "the answers were taken")
        XCTAssertEqual(cache.policy(), DisplayWidth.policy, "and kept")
        // After the last answer, the same bytes are the key xterm sends (Shift-F3 works as F3).
        try send("\u{1B}[1;2R")
        XCTAssertNil(try loop.runOnce())
        XCTAssertTrue(app.showsScrollEvents)
    }

    func testATerminalThatAnswersNothingIsGivenUpAfterTheWindowFromWhenTheProbeWasWritten() throws {
        var clock = 100.0
        let (loop, app) = startLoop(clock: { clock }, sentAt: 97)
        XCTAssertEqual(try XCTUnwrap(loop.timeout()), TerminalGraphemeProbe.answerWindow - 3, accuracy: 1e-9,
                       "the loop wakes when the window, counted from the probe's writing, ends")
        clock = 97 + TerminalGraphemeProbe.answerWindow
        XCTAssertEqual(loop.timeout(), 0)
        XCTAssertNil(try loop.runOnce())
        XCTAssertFalse(loop.awaitsTerminalAnswers, "nothing came and nothing waits to be read: given up")
        XCTAssertGreaterThan(try XCTUnwrap(loop.timeout()), 1, "and not woken for it again")
        try send("\u{1B}[1;2R")
        XCTAssertNil(try loop.runOnce())
        XCTAssertTrue(app.showsScrollEvents, "a modified F3 is a key again")
        XCTAssertEqual(DisplayWidth.policy, .substitute)
        XCTAssertNil(cache.policy(), "nothing kept: the next start asks again")
    }

    func testAModifiedF3TypedAmongTheAnswersLeavesNoPolicy() throws {
        var clock = 100.0
        let (loop, _) = startLoop(clock: { clock }, sentAt: 100)
        // Alt-F3 is `CSI 1 ; 3 R`: the report of a two-column sample, one too many.
        try send(answers(typing: "\u{1B}[1;3R", after: 3))
        clock += 0.05
        XCTAssertNil(try loop.runOnce())
        XCTAssertFalse(loop.awaitsTerminalAnswers, "the answers are over")
        XCTAssertEqual(DisplayWidth.policy, .substitute, "the substitutions stay")
        XCTAssertNil(cache.policy(), "and no answer paired with the wrong sample is kept")
    }

    func testAKeyTypedAmongTheAnswersActsAndVoidsTheProbe() throws {
        var clock = 100.0
        let (loop, app) = startLoop(clock: { clock }, sentAt: 100)
        try send(answers(typing: "\u{1B}OP", after: 5))  // F1
        clock += 0.05
        XCTAssertNil(try loop.runOnce())
        XCTAssertTrue(app.showsHelp, "the key acts")
        XCTAssertFalse(app.showsScrollEvents, "and no answer did")
        XCTAssertFalse(loop.awaitsTerminalAnswers)
        XCTAssertEqual(DisplayWidth.policy, .substitute)
        XCTAssertNil(cache.policy())
    }

    func testAnswersSplitAcrossReadsAreTakenWhole() throws {
        var clock = 100.0
        let (loop, app) = startLoop(clock: { clock }, sentAt: 100)
        let all = Array(answers().utf8)
        for piece in stride(from: 0, to: all.count, by: 7) {
            try pipe.write.writeAll(Array(all[piece..<min(all.count, piece + 7)]))
            clock += 0.01
            XCTAssertNil(try loop.runOnce())
        }
        XCTAssertFalse(app.showsScrollEvents)
        XCTAssertTrue(DisplayWidth.policy.intact.contains(.joiner))
        XCTAssertEqual(cache.policy(), DisplayWidth.policy)
    }
}
