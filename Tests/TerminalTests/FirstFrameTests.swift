import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The first frame waits for no answer from the terminal: it is drawn with every emoji shape
/// substituted, and the grapheme probe's answers, whenever they come, let a later frame draw
/// clusters whole.
final class FirstFrameTests: XCTestCase {
    private static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"

    /// When the byte at `offset` reached the terminal (monotonic seconds).
    private func arrival(of offset: Int, in chunks: [FakeTerminal.Chunk]) -> Double? {
        chunks.first { $0.total > offset }?.time
    }

    func testTheFirstFrameIsWrittenAtOnceOnATerminalThatDoesNotAnswer() throws {
        let terminal = try FakeTerminal(answers: false) { _ in 2 }
        let (client, home) = try terminal.startClient(comments: ["family \(Self.family) end of the first frame"])
        defer { terminal.stop(client, home: home) }
        try Waiting.until("the first frame", state: { terminal.output.debugDescription }) {
            terminal.output.contains("end of the first frame")
        }
        let (bytes, chunks) = terminal.recording
        let text = String(decoding: bytes, as: UTF8.self)
        // The probe ends by erasing the shell's line; the frame holds the comment.
        let probeEnd = try XCTUnwrap(text.utf8.firstRange(of: "\r\u{1B}[2K".utf8)?.upperBound, "the probe was sent")
        let frame = try XCTUnwrap(text.utf8.firstRange(of: "end of the first frame".utf8)?.lowerBound)
        let sent = try XCTUnwrap(arrival(of: text.utf8.distance(from: text.utf8.startIndex, to: probeEnd) - 1, in: chunks))
        let drawn = try XCTUnwrap(arrival(of: text.utf8.distance(from: text.utf8.startIndex, to: frame), in: chunks))
        // Waiting for the answers' timeout took 0.25 s; the frame takes a few milliseconds
        // (0.2 s leaves room for a loaded machine).
        XCTAssertLessThan(drawn - sent, 0.2, "the first frame did not wait for the probe's answers")
        let screen = text.components(separatedBy: "\u{1B}[?1049h").dropFirst().joined()
        XCTAssertTrue(screen.contains("end of the first frame"))
        XCTAssertFalse(screen.contains("\u{200D}"), "and no joiner reached the screen of a terminal that did not answer")
    }

    func testAnswersAKilledClientLeftUnreadNeverReachTheShell() throws {
        let terminal = try FakeTerminal(answers: true, holdsAnswers: true) { _ in 2 }
        let (client, home) = try terminal.startClient(comments: ["end of the first frame"])
        defer { terminal.stop(client, home: home) }
        try Waiting.until("the first frame") { terminal.output.contains("end of the first frame") }
        let supervisor = client.processIdentifier
        let children = try String(contentsOfFile: "/proc/\(supervisor)/task/\(supervisor)/children", encoding: .utf8)
        let worker = try XCTUnwrap(children.split(separator: " ").first.flatMap { Int32($0) }, "the worker")
        // The answers come while the client cannot read them, and it dies.
        kill(worker, SIGSTOP)
        terminal.releaseAnswers()
        func unread() -> Int32 {
            var count: Int32 = 0
            return ioctl(terminal.slave.rawValue, UInt(FIONREAD), &count) == 0 ? count : -1
        }
        try Waiting.until("the answers waiting on the terminal's input") { unread() > 0 }
        kill(worker, SIGKILL)
        client.waitUntilExit()
        // In line mode a line without its end counts for nothing: look as a raw reader would.
        var settings = try XCTUnwrap(TerminalDevice.saveSettings(of: terminal.slave))
        settings.c_lflag &= ~tcflag_t(ICANON)
        TerminalDevice.restoreSettings(settings, of: terminal.slave)
        XCTAssertEqual(unread(), 0, "the shell after it reads none of them")
    }

    func testAnswersThatComeAfterTheFirstFrameLetALaterFrameDrawClustersWhole() throws {
        let terminal = try FakeTerminal(answers: true, holdsAnswers: true) { _ in 2 }
        let (client, home) = try terminal.startClient(comments: ["family \(Self.family) flag \u{1F1EB}\u{1F1F7} end"])
        defer { terminal.stop(client, home: home) }
        var screen: String { terminal.output.components(separatedBy: "\u{1B}[?1049h").dropFirst().joined() }
        try Waiting.until("the first frame", state: { screen.debugDescription }) { screen.contains(" FR end") }
        XCTAssertFalse(screen.contains("\u{200D}"), "drawn substituted while no answer has come")
        terminal.releaseAnswers()
        try Waiting.until("the family drawn whole", state: { screen.debugDescription }) {
            screen.contains(Self.family) && screen.contains("\u{1F1EB}\u{1F1F7}")
        }
        let kept = GraphemePolicyCache(environment: ["HOME": home, "TERM": "xterm-256color"])?.policy()
        XCTAssertEqual(kept?.intact.contains(.joiner), true, "the answer is kept for the next start")
    }

    func testAnswersThatComeSecondsLateAreStillTheProbesNotKeys() throws {
        let terminal = try FakeTerminal(answers: true, holdsAnswers: true) { _ in 2 }
        let (client, home) = try terminal.startClient(comments: ["family \(Self.family) flag \u{1F1EB}\u{1F1F7} end"])
        defer { terminal.stop(client, home: home) }
        var screen: String { terminal.output.components(separatedBy: "\u{1B}[?1049h").dropFirst().joined() }
        try Waiting.until("the first frame", state: { screen.debugDescription }) { screen.contains(" FR end") }
        // Past the two seconds the answers were once awaited: each was then read as F3 with
        // the column as its modifiers.
        Thread.sleep(forTimeInterval: 2.5)
        terminal.releaseAnswers()
        try Waiting.until("the family drawn whole", state: { screen.debugDescription }) {
            screen.contains(Self.family) && screen.contains("\u{1F1EB}\u{1F1F7}")
        }
        try terminal.waitUntilQuiet()
        XCTAssertFalse(screen.contains("scroll events"), "no answer opened the F3 panel")
    }

    func testAnAltF3TypedWhileTheTerminalAnswersLeavesNoWrongPolicy() throws {
        let terminal = try FakeTerminal(answers: true, holdsAnswers: true) { _ in 2 }
        let (client, home) = try terminal.startClient(comments: ["family \(Self.family) flag \u{1F1EB}\u{1F1F7} end"])
        defer { terminal.stop(client, home: home) }
        var screen: String { terminal.output.components(separatedBy: "\u{1B}[?1049h").dropFirst().joined() }
        try Waiting.until("the first frame", state: { screen.debugDescription }) { screen.contains(" FR end") }
        // Alt-F3 is `CSI 1 ; 3 R`, the very report of a sample two columns wide.
        terminal.releaseAnswers(typing: "\u{1B}[1;3R", afterReports: 3)
        try terminal.waitUntilQuiet(for: 0.5)
        // Once the answers are over, the same bytes are a key (Shift-F3 opens the F3 panel).
        terminal.type("\u{1B}[1;2R")
        try Waiting.until("the F3 panel", state: { screen.debugDescription }) { screen.contains("scroll events") }
        XCTAssertNil(GraphemePolicyCache(environment: ["HOME": home, "TERM": "xterm-256color"])?.policy(),
                     "answers with a key among them are not kept (the next start asks again)")
        XCTAssertFalse(screen.contains(Self.family), "and the substitutions stay")
    }
}
