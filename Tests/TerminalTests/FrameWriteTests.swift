import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// Each frame reaches the terminal in one `write()`: the screen writes into a packet socket,
/// which keeps every write a message of its own, and the test counts the messages.
final class FrameWriteTests: XCTestCase {
    var terminal: (ours: Int32, theirs: Int32) = (-1, -1)
    var output: UnsafeMutablePointer<FILE>!
    var input: UnsafeMutablePointer<FILE>!
    var screen: NCursesScreen!
    let columns = 120, rows = 100

    override func setUpWithError() throws {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair), 0)
        terminal = (pair[0], pair[1])
        var size = Int32(4 << 20)
        _ = setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(pair[1], SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        output = try XCTUnwrap(fdopen(pair[0], "w"))
        input = try XCTUnwrap(fopen("/dev/null", "r"))
        screen = try NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: true)
        screen.resize(columns: columns, rows: rows)
        _ = writes()
    }

    override func tearDown() {
        screen.end()
        fclose(output)
        fclose(input)
        close(terminal.theirs)
    }

    /// The sizes of the writes that arrived since the last call.
    func writes() -> [Int] {
        var sizes: [Int] = []
        var message = [UInt8](repeating: 0, count: 4 << 20)
        while true {
            let n = recv(terminal.theirs, &message, message.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { return sizes }
            sizes.append(n)
        }
    }

    /// A screen of text where every few cells change style, as a busy feed does.
    func busyBuffer(seed: Int) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: rows)
        let styles = [CellStyle.plain, Theme.mention, CellStyle(.bold), CellStyle(.italic, foreground: .cyan)]
        for row in 0..<rows {
            var column = 0
            var word = 0
            while column < columns - 8 {
                let text = "w\(seed)r\(row)"
                buffer.write(text, column: column, row: row, style: styles[(word + seed) % styles.count])
                column += text.count + 1
                word += 1
            }
        }
        return buffer
    }

    func testEveryFrameIsOneWriteHoweverLarge() {
        screen.present(Frame(buffer: busyBuffer(seed: 1), cursor: CursorPosition(column: 0, row: rows - 1)), full: true)
        let first = writes()
        XCTAssertEqual(first.count, 1, "a full redraw of \(columns)x\(rows) in one write, not \(first)")
        XCTAssertGreaterThan(first.first ?? 0, columns * rows / 2, "the whole screen is in it")
        for seed in 2..<6 {
            var frame = Frame(buffer: busyBuffer(seed: seed), cursor: CursorPosition(column: 3, row: rows - 1))
            frame.ringsBell = seed == 3
            screen.present(frame, full: false)
            let sizes = writes()
            XCTAssertEqual(sizes.count, 1, "frame \(seed): \(sizes)")
        }
    }

    func testSynchronizedMarkersAndWholeClustersTravelInTheFramesWrite() throws {
        DisplayWidth.policy = .allIntact
        defer { DisplayWidth.policy = .substitute }
        screen.modeReported(mode: 2026, value: 1)
        var buffer = busyBuffer(seed: 7)
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        buffer.write("a " + family + " b", column: 0, row: 40)
        screen.present(Frame(buffer: buffer, cursor: nil), full: false)
        var message = [UInt8](repeating: 0, count: 4 << 20)
        let n = recv(terminal.theirs, &message, message.count, Int32(MSG_DONTWAIT))
        XCTAssertGreaterThan(n, 0)
        let text = String(decoding: message.prefix(max(0, n)), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("\u{1B}[?2026h"), text.prefix(20).debugDescription)
        XCTAssertTrue(text.hasSuffix("\u{1B}[?2026l"))
        XCTAssertTrue(text.contains("\u{1B}[41;3H" + CellBuffer.sgr(.plain) + family), "the cluster's own bytes, in the same write")
        XCTAssertEqual(writes(), [], "nothing else was written")
    }

    func testANeighbourSurvivesWhenTmuxReadsAJoinerApartFromWhatItJoins() throws {
        DisplayWidth.policy = GraphemePolicy(intact: [[.joiner]])
        defer { DisplayWidth.policy = .substitute }
        var buffer = CellBuffer(columns: columns, rows: rows)
        buffer.write("A\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}Bcdef |end", column: 0, row: 0)
        screen.present(Frame(buffer: buffer, cursor: nil), full: true)
        var message = [UInt8](repeating: 0, count: 4 << 20)
        let n = recv(terminal.theirs, &message, message.count, Int32(MSG_DONTWAIT))
        let frame = Array(message.prefix(max(0, n)))
        // tmux 3.3a reads a pane's output in pieces: one that ends just after the cluster's
        // first joiner (in the cluster's own bytes, after ncurses' placeholder) is played here.
        let joiner = Array("\u{1F468}\u{200D}".utf8)
        let cut = try XCTUnwrap((0...(frame.count - joiner.count)).last { Array(frame[$0..<($0 + joiner.count)]) == joiner }) + joiner.count
        let tmux = try TmuxSession(columns: columns, rows: rows)
        try Data(frame[..<cut]).write(to: tmux.home.appendingPathComponent("first"))
        try Data(frame[cut...]).write(to: tmux.home.appendingPathComponent("second"))
        let home = tmux.home.path
        try tmux.run("stty raw -echo; cat \(home)/first; sleep 0.3; cat \(home)/second; touch \(home)/done; sleep 60")
        try Waiting.until("both pieces written") { FileManager.default.fileExists(atPath: home + "/done") }
        func firstRow() throws -> String {
            String(String.UnicodeScalarView(try tmux.screen()[0].unicodeScalars.filter { $0.value != 0x200D }))
        }
        var shown = ""
        _ = try Waiting.poll(timeout: 2) {
            shown = try firstRow()
            return shown == "A\u{1F468}Bcdef |end"
        }
        XCTAssertEqual(shown, "A\u{1F468}Bcdef |end", "the cluster loses what tmux split off, but nothing around it is lost")
    }

    func testSuspendAndResumeWriteOnceEach() {
        screen.present(Frame(buffer: busyBuffer(seed: 1), cursor: nil), full: true)
        _ = writes()
        screen.suspend()
        let leaving = writes()
        XCTAssertEqual(leaving.count, 1, "\(leaving)")
        screen.resume()
        XCTAssertEqual(writes().count, 1)
    }
}
