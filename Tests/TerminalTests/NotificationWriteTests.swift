import XCTest
@testable import CommentTUI
import ThreadModel
#if canImport(Glibc)
import Glibc
#endif

/// What the screen writes for notifications and focus reports: a frame's notification escape
/// goes in the frame's one write, after all it draws; focus reports (1004) are on while the
/// client holds the screen and off whenever it leaves it.
final class NotificationWriteTests: XCTestCase {
    var terminal: (ours: Int32, theirs: Int32) = (-1, -1)
    var output: UnsafeMutablePointer<FILE>!
    var input: UnsafeMutablePointer<FILE>!
    var screen: NCursesScreen!

    override func setUpWithError() throws {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair), 0)
        terminal = (pair[0], pair[1])
        output = try XCTUnwrap(fdopen(pair[0], "w"))
        input = try XCTUnwrap(fopen("/dev/null", "r"))
        screen = try NCursesScreen(terminalType: "xterm-256color", output: output, input: input, enableModes: true)
        screen.resize(columns: 40, rows: 10)
    }

    override func tearDown() {
        screen?.end()
        if let output { fclose(output) }
        if let input { fclose(input) }
        close(terminal.theirs)
    }

    /// The writes that arrived since the last call, each as text.
    func writes() -> [String] {
        var messages: [String] = []
        var message = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = recv(terminal.theirs, &message, message.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { return messages }
            messages.append(String(decoding: message[..<n], as: UTF8.self))
        }
    }

    func testFocusReportsAreOnWhileTheScreenIsHeld() {
        XCTAssertTrue(writes().joined().hasSuffix("\u{1B}[?1004h"), "on as the screen is taken")
        screen.suspend()
        let away = writes().joined()
        XCTAssertTrue(away.contains("\u{1B}[?1004l"), away.debugDescription)
        XCTAssertFalse(away.contains("\u{1B}[?1004h"))
        screen.resume()
        XCTAssertTrue(writes().joined().contains("\u{1B}[?1004h"), "on again after Ctrl-Z or the editor")
        XCTAssertTrue(TerminalDevice.emergencyReset.contains("\u{1B}[?1004l"), "the supervisor's reset after a crash turns it off")
    }

    func testTheNotificationGoesAfterTheFrameInItsWrite() {
        _ = writes()
        var buffer = CellBuffer(columns: 40, rows: 10)
        buffer.write("hello", column: 0, row: 0)
        var frame = Frame(buffer: buffer, cursor: CursorPosition(column: 5, row: 0))
        let escape = TerminalNotification.bytes(NotificationText(title: "Design", body: "Bo: hi"), style: .osc777)
        frame.notification = escape
        screen.present(frame, full: true)
        let first = writes()
        XCTAssertEqual(first.count, 1)
        XCTAssertTrue(first.first?.contains("hello") == true)
        XCTAssertTrue(first.first?.hasSuffix(String(decoding: escape, as: UTF8.self)) == true, first.debugDescription)
        frame.notification = []
        buffer.write("again", column: 0, row: 1)
        frame.buffer = buffer
        screen.present(frame, full: false)
        XCTAssertFalse(writes().joined().contains("\u{1B}]777"), "a frame without one writes none")
    }
}
