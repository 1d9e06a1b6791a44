import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The emoji probe against a fake terminal on a pseudo-terminal: one that answers the cursor
/// position as a grapheme-aware terminal would, one that splits clusters, one that stays silent.
final class GraphemeProbeTests: XCTestCase {
    private func probe(_ terminal: FakeTerminal) -> GraphemePolicy? {
        TerminalDevice.withQuietInput(terminal.slave) { TerminalGraphemeProbe.probe(input: terminal.slave, output: terminal.slave) } ?? nil
    }

    func testAGraphemeAwareTerminalGetsEveryClassWhole() throws {
        let terminal = try FakeTerminal(answers: true) { _ in 2 }
        XCTAssertEqual(probe(terminal), .allIntact)
    }

    func testATerminalThatSplitsClustersGetsThemSubstituted() throws {
        // Each scalar its own cell, as an old terminal draws them: only the new emoji is two wide.
        let terminal = try FakeTerminal(answers: true) { character in
            character.unicodeScalars.reduce(0) { $0 + ($1.value == 0x1FAE0 ? 2 : $1.properties.isEmojiPresentation ? 2 : $1.value < 0x300 ? 1 : 0) }
        }
        let policy = try XCTUnwrap(probe(terminal))
        XCTAssertFalse(policy.intact.contains(.zwjSequence))
        XCTAssertFalse(policy.intact.contains(.flag))
        XCTAssertTrue(policy.intact.contains(.newerEmoji))
    }

    func testATerminalThatDoesNotAnswerGetsTodaysSubstitutionsInTime() throws {
        let terminal = try FakeTerminal(answers: false) { _ in 2 }
        let start = Date()
        XCTAssertNil(probe(terminal))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "the timeout is short")
        var environment = ["HOME": NSTemporaryDirectory() + "probe-\(UUID().uuidString)", "TERM": "silent"]
        defer { try? FileManager.default.removeItem(atPath: environment["HOME"]!) }
        XCTAssertEqual(TerminalGraphemeProbe.policy(environment: environment, input: terminal.slave, output: terminal.slave), .substitute)
        environment[TerminalGraphemeProbe.variable] = "intact"
        XCTAssertEqual(TerminalGraphemeProbe.policy(environment: environment, input: terminal.slave, output: terminal.slave), .allIntact,
                       "the variable overrides")
    }

    func testModeTwentyTwentySevenSetMeansEverythingWholeAndAnswersAreCached() throws {
        let terminal = try FakeTerminal(answers: true, reportsGraphemeMode: 1) { _ in 1 }
        let home = NSTemporaryDirectory() + "probe-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "TERM": "fake", "TERM_PROGRAM": "Fake", "TERM_PROGRAM_VERSION": "1"]
        XCTAssertEqual(TerminalGraphemeProbe.policy(environment: environment, input: terminal.slave, output: terminal.slave), .allIntact)
        XCTAssertEqual(GraphemePolicyCache(environment: environment)?.policy(), .allIntact, "kept for the next start")
        // Another terminal program with the same TERM is asked again.
        XCTAssertNil(GraphemePolicyCache(environment: ["HOME": home, "TERM": "fake", "TERM_PROGRAM": "Other"])?.policy())
    }

    /// What the client wrote after switching to its screen (the probe's samples come before).
    private func firstScreen(on terminal: FakeTerminal) throws -> String {
        let (client, home) = try terminal.startClient(comments: ["family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} flag \u{1F1EB}\u{1F1F7} end"])
        defer {
            if client.isRunning { client.terminate() }
            client.waitUntilExit()
            try? FileManager.default.removeItem(atPath: home)
        }
        _ = try Waiting.poll(timeout: 10) { terminal.output.contains(" end") }
        return terminal.output.components(separatedBy: "\u{1B}[?1049h").last ?? ""
    }

    func testTheClientShowsAFamilyWholeWhereTheTerminalDrawsItSo() throws {
        let shown = try firstScreen(on: try FakeTerminal(answers: true) { _ in 2 })
        XCTAssertTrue(shown.contains("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), "written whole: \(shown.debugDescription)")
        XCTAssertTrue(shown.contains("\u{1F1EB}\u{1F1F7}"))
        let substituted = try firstScreen(on: try FakeTerminal(answers: false) { _ in 2 })
        XCTAssertFalse(substituted.contains("\u{200D}"), "no joiner reaches a terminal that did not answer")
        XCTAssertTrue(substituted.contains("FR"), "the flag by its letters")
    }

    func testATerminalThatClustersOnlyOnceAskedIsAskedWhileTheClientHoldsTheScreen() throws {
        // Mode 2027 reset: the cursor reports still split clusters, but the mode can be set.
        let terminal = try FakeTerminal(answers: true, reportsGraphemeMode: 2) { _ in 1 }
        XCTAssertEqual(probe(terminal), GraphemePolicy(intact: GraphemePolicy.allIntact.intact, setsClusteringMode: true))
        let fresh = try FakeTerminal(answers: true, reportsGraphemeMode: 2) { _ in 1 }
        let (client, home) = try fresh.startClient(comments: ["family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} end"])
        defer {
            if client.isRunning { client.terminate() }
            client.waitUntilExit()
            try? FileManager.default.removeItem(atPath: home)
        }
        _ = try Waiting.poll(timeout: 10) { fresh.output.contains(" end") }
        let screen = fresh.output.components(separatedBy: "\u{1B}[?1049h").last ?? ""
        XCTAssertTrue(screen.contains(TerminalDevice.enableClustering), screen.debugDescription)
        XCTAssertTrue(screen.contains("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), "then written whole")
        XCTAssertEqual(GraphemePolicyCache(environment: ["HOME": home, "TERM": "xterm-256color"])?.policy()?.setsClusteringMode, true,
                       "remembered for the next start")
        client.terminate()
        _ = try Waiting.poll(timeout: 10) { fresh.output.contains(TerminalDevice.disableClustering) }
        let closing = fresh.output.components(separatedBy: TerminalDevice.disableClustering).count - 1
        XCTAssertEqual(closing, 1, "and unset once when it leaves")
    }
}
