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
    /// A pty whose master side plays a terminal: it reads what the probe writes and answers each
    /// `ESC [ 6n` with the column the cursor reached, counting each cluster's width by `advance`.
    private final class FakeTerminal: @unchecked Sendable {
        let master: Int32
        let slave: FileDescriptor
        private var reader: Thread?
        private let lock = NSLock()
        private var written: [UInt8] = []
        /// Everything the program wrote to the terminal so far.
        var output: String { lock.withLock { String(decoding: written, as: UTF8.self) } }

        init(answers: Bool, reportsGraphemeMode: Int? = nil, advance: @escaping @Sendable (Character) -> Int) throws {
            master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard master >= 0 else { throw SystemError("open /dev/ptmx") }
            var unlock: Int32 = 0, number: UInt32 = 0
            // TIOCSPTLCK and TIOCGPTN (Linux), which Swift's Glibc does not import.
            guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
                throw SystemError("pty ioctl")
            }
            let fd = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            guard fd >= 0 else { throw SystemError("open pts") }
            slave = FileDescriptor(rawValue: fd)
            let master = master
            reader = Thread { [unowned self] in
                var pending: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                var column = 1
                while true {
                    let n = read(master, &chunk, chunk.count)
                    if n <= 0 { return }
                    self.lock.withLock { self.written += chunk[0..<n] }
                    pending += chunk[0..<n]
                    var text = String(decoding: pending, as: UTF8.self)
                    // Act on complete pieces: text, CR, CSI 6n, DECRQM.
                    while let next = text.first {
                        if next == "\r" { column = 1; text.removeFirst(); continue }
                        if next == "\u{1B}" {
                            if text.hasPrefix("\u{1B}[6n") {
                                text.removeFirst(4)
                                if answers { _ = Array("\u{1B}[1;\(column)R".utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
                            } else if text.hasPrefix("\u{1B}[?2027$p") {
                                text.removeFirst(9)
                                if let mode = reportsGraphemeMode {
                                    _ = Array("\u{1B}[?2027;\(mode)$y".utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                                }
                            } else if text.hasPrefix("\u{1B}[2K") {
                                text.removeFirst(4)
                            } else {
                                break  // incomplete: wait for more
                            }
                            continue
                        }
                        column += advance(next)
                        text.removeFirst()
                    }
                    pending = Array(text.utf8)
                }
            }
            reader?.start()
        }

        deinit { close(master); slave.close() }
    }

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

    /// The client itself on the fake terminal: its first screen shows a family whole where the
    /// terminal said it draws one so, and substituted where the terminal does not answer.
    private func firstScreen(on terminal: FakeTerminal) throws -> String {
        let home = NSTemporaryDirectory() + "probe-client-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let path = home + "/family.jsonl"
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        let records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t", title: "Families", author: "u1", created: start, body: "")),
            .user(User(id: "u1", handle: "ann", name: "Ann")),
            .comment(Comment(id: "c1", author: "u1", created: start, body: "family \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} flag \u{1F1EB}\u{1F1F7} end")),
        ]
        try Data(records.flatMap { ThreadRecordEncoder().encode($0) }).write(to: URL(fileURLWithPath: path))
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(terminal.slave.rawValue, UInt(TIOCSWINSZ), &size)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: TmuxSession.clientPath)
        client.arguments = [path, "--as", "ann"]
        client.environment = ["HOME": home, "TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let handle = FileHandle(fileDescriptor: terminal.slave.rawValue, closeOnDealloc: false)
        client.standardInput = handle
        client.standardOutput = handle
        client.standardError = handle
        try client.run()
        defer { if client.isRunning { client.terminate() }; client.waitUntilExit() }
        _ = try Waiting.poll(timeout: 10) { terminal.output.contains(" end") }
        return terminal.output
    }

    func testTheClientShowsAFamilyWholeWhereTheTerminalDrawsItSo() throws {
        let aware = try FakeTerminal(answers: true) { _ in 2 }
        // What follows the switch to the screen (the probe's own samples come before it).
        let shown = try firstScreen(on: aware).components(separatedBy: "\u{1B}[?1049h").last ?? ""
        XCTAssertTrue(shown.contains("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"), "written whole: \(shown.debugDescription)")
        XCTAssertTrue(shown.contains("\u{1F1EB}\u{1F1F7}"))
        let silent = try FakeTerminal(answers: false) { _ in 2 }
        let substituted = try firstScreen(on: silent).components(separatedBy: "\u{1B}[?1049h").last ?? ""
        XCTAssertFalse(substituted.contains("\u{200D}"), "no joiner reaches a terminal that did not answer")
        XCTAssertTrue(substituted.contains("FR"), "the flag by its letters")
    }
}
