import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// The emoji probe against a fake terminal on a pseudo-terminal: one that answers the cursor
/// position as a grapheme-aware terminal would, one that splits clusters, one that sizes them
/// as tmux 3.3a does, one that stays silent.
final class GraphemeProbeTests: XCTestCase {
    /// Sends a probe to `terminal` and reads its answers as the loop does (through the input
    /// decoder), for at most a second; nil when they did not all come.
    private func probe(_ terminal: FakeTerminal) -> GraphemePolicy? {
        var probe = GraphemeProbe(samples: TerminalGraphemeProbe.samples, cache: nil)
        let answered = TerminalDevice.withQuietInput(terminal.slave) { () -> Bool in
            guard (try? terminal.slave.writeAll(Array(probe.query.utf8))) != nil else { return false }
            var decoder = InputDecoder()
            decoder.awaitProbeAnswers()
            let deadline = MonotonicClock.now() + 1
            while !probe.isComplete {
                let left = deadline - MonotonicClock.now()
                guard left > 0, let ready = try? Poll.readable([terminal.slave], timeout: left), !ready.isEmpty,
                      let chunk = try? terminal.slave.read(upTo: 256), !chunk.isEmpty else { return false }
                for event in decoder.feed(chunk) { XCTAssertTrue(probe.take(event), "only answers came: \(event)") }
            }
            return true
        }
        return answered == true ? probe.policy : nil
    }

    /// Every shape the probe's samples have here.
    private var sampledShapes: Set<ClusterShape> {
        Set(GraphemeProbe(samples: TerminalGraphemeProbe.samples, cache: nil).samples.map(\.shape))
    }

    func testAGraphemeAwareTerminalGetsEveryShapeWhole() throws {
        let terminal = try FakeTerminal(answers: true) { _ in 2 }
        let policy = try XCTUnwrap(probe(terminal))
        XCTAssertEqual(policy.intact, sampledShapes)
        XCTAssertFalse(policy.wholeEverywhere, "only the shapes measured")
    }

    func testATerminalThatSplitsClustersGetsThemSubstituted() throws {
        // Each scalar its own cell, as an old terminal draws them: only a new emoji is two wide.
        let terminal = try FakeTerminal(answers: true) { character in
            character.unicodeScalars.reduce(0) { $0 + ($1.properties.isEmojiPresentation ? 2 : $1.value < 0x300 ? 1 : 0) }
        }
        let policy = try XCTUnwrap(probe(terminal))
        XCTAssertFalse(policy.intact.contains(.joiner))
        XCTAssertFalse(policy.intact.contains([.flag, .narrowLead]))
        XCTAssertFalse(policy.intact.contains([.skinTone]))
        if DisplayWidth.libcWidth("\u{1FAE8}") < 0 {
            XCTAssertTrue(policy.intact.contains(.newer), "an emoji newer than the C library, drawn two wide")
        }
    }

    /// How tmux 3.3a moves its cursor over a cluster: the lead by the C library's width, a
    /// modifier as a character of its own, what follows a joiner into the joiner's cell, VS16
    /// ignored (measured: `👩🏽‍💻` four, `❤️‍🔥` one, `🤷‍♂️` two).
    static func tmuxAdvance(_ character: Character) -> Int {
        var columns = 0
        var joined = false
        for scalar in character.unicodeScalars {
            if scalar.value == 0x200D { joined = true; continue }
            if joined { joined = false; continue }
            columns += max(0, DisplayWidth.libcWidth(scalar))
        }
        return columns
    }

    func testATerminalThatSizesByTheLeadGetsOnlyTheShapesItDrawsTwoWide() throws {
        let terminal = try FakeTerminal(answers: true) { Self.tmuxAdvance($0) }
        let policy = try XCTUnwrap(probe(terminal))
        XCTAssertTrue(policy.intact.contains(.joiner), "👨‍👩‍👧")
        XCTAssertTrue(policy.intact.contains([.joiner, .presentationSelector]), "🤷‍♂️")
        XCTAssertTrue(policy.intact.contains([.flag, .narrowLead]), "🇫🇷")
        for shape: ClusterShape in [[.joiner, .skinTone], [.joiner, .skinTone, .presentationSelector], [.skinTone],
                                    [.joiner, .presentationSelector, .narrowLead], [.presentationSelector, .narrowLead],
                                    [.keycap, .presentationSelector, .narrowLead]] {
            XCTAssertFalse(policy.intact.contains(shape), "\(shape) is drawn 1, 3 or 4 wide there")
        }
        // So a skin tone with a joiner is substituted where a family stays whole.
        DisplayWidth.policy = policy
        defer { DisplayWidth.policy = .substitute }
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}").count, 1)
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}").map(\.text), ["\u{1F469}", "\u{1F4BB}"])
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{2764}\u{FE0F}\u{200D}\u{1F525}").map(\.text), ["\u{2764}", "\u{1F525}"])
    }

    func testWithoutACachedAnswerTheClientStartsSubstitutedAndProbes() throws {
        var environment = ["HOME": NSTemporaryDirectory() + "probe-\(UUID().uuidString)", "TERM": "silent"]
        defer { try? FileManager.default.removeItem(atPath: environment["HOME"]!) }
        let start = TerminalGraphemeProbe.start(environment: environment)
        XCTAssertEqual(start.policy, .substitute)
        XCTAssertEqual(start.probe?.reportCount, GraphemeProbe(samples: TerminalGraphemeProbe.samples, cache: nil).reportCount)
        let silent = try FakeTerminal(answers: false) { _ in 2 }
        XCTAssertNil(probe(silent), "a silent terminal gives no answer")
        environment[TerminalGraphemeProbe.variable] = "intact"
        let intact = TerminalGraphemeProbe.start(environment: environment)
        XCTAssertEqual(intact.policy, .allIntact, "the variable overrides")
        XCTAssertNil(intact.probe, "and nothing is asked")
    }

    func testModeTwentyTwentySevenSetMeansEverythingWholeAndAnswersAreCached() throws {
        let terminal = try FakeTerminal(answers: true, reportsGraphemeMode: 1) { _ in 1 }
        XCTAssertEqual(probe(terminal), .allIntact)
        let home = NSTemporaryDirectory() + "probe-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "TERM": "fake", "TERM_PROGRAM": "Fake", "TERM_PROGRAM_VERSION": "1"]
        GraphemePolicyCache(environment: environment)?.save(.allIntact)
        let next = TerminalGraphemeProbe.start(environment: environment)
        XCTAssertEqual(next.policy, .allIntact, "kept for the next start")
        XCTAssertNil(next.probe, "which asks nothing")
        // Another terminal program with the same TERM is asked again.
        XCTAssertNil(GraphemePolicyCache(environment: ["HOME": home, "TERM": "fake", "TERM_PROGRAM": "Other"])?.policy())
    }

    func testShapesAreCachedByNameAndAnOlderCacheIsMeasuredAgain() throws {
        let home = NSTemporaryDirectory() + "probe-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "TERM": "tmux-256color"]
        let cache = try XCTUnwrap(GraphemePolicyCache(environment: environment))
        // What the previous version kept: kinds of cluster, one of which (ZWJ) it drew whole
        // with every skin tone and VS16 in it.
        try FileManager.default.createDirectory(atPath: home + "/.cache/comment-tui", withIntermediateDirectories: true)
        try Data(#"{"tmux-256color||":["flag","newerEmoji","zwjSequence"]}"#.utf8).write(to: URL(fileURLWithPath: cache.path))
        XCTAssertNil(cache.policy(), "a cache without this version is not read")
        XCTAssertNotNil(TerminalGraphemeProbe.start(environment: environment).probe, "so the terminal is measured again")
        let measured = GraphemePolicy(intact: [.joiner, [.joiner, .presentationSelector], [.flag, .narrowLead]])
        cache.save(measured)
        XCTAssertEqual(cache.policy(), measured)
        let file = try String(contentsOfFile: cache.path, encoding: .utf8)
        XCTAssertTrue(file.contains(#""version":\#(GraphemePolicyCache.version)"#), file)
        XCTAssertTrue(file.contains(#""joiner+presentationSelector""#), file)
    }

    /// Starts the client on `terminal` with a family and a flag; returns what it wrote after
    /// switching to its screen once `shown` holds (the probe's samples come before).
    private func screen(on terminal: FakeTerminal, until shown: (String) -> Bool) throws -> String {
        let (client, home) = try terminal.startClient(comments: ["family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} flag \u{1F1EB}\u{1F1F7} end"])
        defer { terminal.stop(client, home: home) }
        var screen = ""
        _ = try Waiting.poll(timeout: 10) {
            screen = terminal.output.components(separatedBy: "\u{1B}[?1049h").dropFirst().joined()
            return shown(screen)
        }
        return screen
    }

    func testTheClientShowsAFamilyWholeWhereTheTerminalDrawsItSo() throws {
        let whole = try screen(on: try FakeTerminal(answers: true) { _ in 2 }) { $0.contains("\u{1F1EB}\u{1F1F7}") }
        XCTAssertTrue(whole.contains("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), "written whole: \(whole.debugDescription)")
        XCTAssertTrue(whole.contains("\u{1F1EB}\u{1F1F7}"))
        let substituted = try screen(on: try FakeTerminal(answers: false) { _ in 2 }) { $0.contains(" end") }
        XCTAssertFalse(substituted.contains("\u{200D}"), "no joiner reaches a terminal that did not answer")
        XCTAssertTrue(substituted.contains("FR"), "the flag by its letters")
    }

    func testATerminalThatClustersOnlyOnceAskedIsAskedWhileTheClientHoldsTheScreen() throws {
        // Mode 2027 reset: the cursor reports still split clusters, but the mode can be set.
        let terminal = try FakeTerminal(answers: true, reportsGraphemeMode: 2) { _ in 1 }
        XCTAssertEqual(probe(terminal), GraphemePolicy(intact: [], wholeEverywhere: true, setsClusteringMode: true))
        let fresh = try FakeTerminal(answers: true, reportsGraphemeMode: 2) { _ in 1 }
        let (client, home) = try fresh.startClient(comments: ["family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} end"])
        defer { fresh.stop(client, home: home) }
        var screen: String { fresh.output.components(separatedBy: "\u{1B}[?1049h").dropFirst().joined() }
        _ = try Waiting.poll(timeout: 10) { screen.contains("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}") }
        let set = try XCTUnwrap(screen.range(of: TerminalDevice.enableClustering), screen.debugDescription)
        let family = try XCTUnwrap(screen.range(of: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), "then written whole")
        XCTAssertLessThan(set.lowerBound, family.lowerBound, "once the mode is set")
        XCTAssertEqual(GraphemePolicyCache(environment: ["HOME": home, "TERM": "xterm-256color"])?.policy()?.setsClusteringMode, true,
                       "remembered for the next start")
        client.terminate()
        _ = try Waiting.poll(timeout: 10) { fresh.output.contains(TerminalDevice.disableClustering) }
        let closing = fresh.output.components(separatedBy: TerminalDevice.disableClustering).count - 1
        XCTAssertEqual(closing, 1, "and unset once when it leaves")
    }
}
