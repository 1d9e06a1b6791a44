import Foundation
import Glibc
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// Joiners outside emoji and joining scripts are shown, not passed to the terminal, and
/// `$BROWSER` entries follow the `%s` convention (issue 22, item 18).
final class InvisibleJoinerAndBrowserTests: XCTestCase {
    /// Every scalar the terminal would be sent for `text`, cell by cell.
    private func terminalScalars(_ text: String) -> [UInt32] {
        DisplayWidth.clusters(of: text).flatMap { $0.text.unicodeScalars.map(\.value) }
    }

    func testJoinersAfterLatinLettersAreShownNotSent() {
        for text in ["a\u{200D}b", "a\u{200C}b", "x\u{0301}\u{200C}y", "1\u{200D}2"] {
            let scalars = terminalScalars(text)
            XCTAssertFalse(scalars.contains(0x200D) || scalars.contains(0x200C), "\(text.unicodeScalars.map(\.value)) → \(scalars)")
            XCTAssertTrue(scalars.contains(0xFFFD), "shown as a visible stand-in: \(scalars)")
            XCTAssertTrue(VisibleControls.sanitize(text).unicodeScalars.contains("\u{FFFD}"), "and so in the parsed text")
        }
        // The parsed comment (what copies, exports and the screen share) says so too.
        let parsed = CommentMarkup.parse("ok a\u{200C}b", handles: { _ in nil })
        XCTAssertEqual(String(parsed.characters), "ok a\u{FFFD}b")
    }

    func testJoinersInsideEmojiAndJoiningScriptsStay() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let kssa = "\u{0915}\u{094D}\u{200D}\u{0937}"             // Devanagari half form
        let persian = "\u{0645}\u{06CC}\u{200C}\u{062E}\u{0648}\u{0627}\u{0645}"  // می‌خوام
        let heart = "\u{2764}\u{FE0F}\u{200D}\u{1F525}"
        let coder = "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}"
        for text in [family, kssa, persian, heart, coder] {
            XCTAssertEqual(VisibleControls.sanitize(text), text, "\(text.unicodeScalars.map(\.value))")
            XCTAssertEqual(VisibleControls.sanitize(text, afterBase: true), text)
            XCTAssertFalse(terminalScalars(text).contains(0xFFFD), "\(text.unicodeScalars.map(\.value)) → \(terminalScalars(text))")
        }
        // A run that continues a joining base keeps a joiner at its start.
        XCTAssertEqual(VisibleControls.sanitize("\u{200C}\u{062E}", afterBase: true), "\u{200C}\u{062E}")
        XCTAssertEqual(VisibleControls.sanitize("\u{200C}b", afterBase: false), "\u{FFFD}b")
    }

    func testBrowserPercentSIsReplacedByTheURLAsOneArgument() throws {
        let directory = try temporaryDirectory(self)
        let log = directory.appendingPathComponent("args").path
        let script = directory.appendingPathComponent("browser").path
        // Writes each argument on its own line, so a URL split by a shell would show.
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"\(log).tmp\"\nmv \"\(log).tmp\" \"\(log)\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(script, 0o755), 0)
        let url = "https://example.com/a?b=1&c=$(touch%20x)"
        let environment = ["BROWSER": "missing-browser:\(script) --new-tab %s --literal 100%%", "PATH": directory.path + ":/usr/bin:/bin"]
        XCTAssertTrue(LinkOpener.open(url, environment: environment))
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: log), Date() < deadline { usleep(10_000) }
        let arguments = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(arguments, ["--new-tab", url, "--literal", "100%"])

        // Without %s the URL is the one argument after the command's own.
        try? FileManager.default.removeItem(atPath: log)
        XCTAssertTrue(LinkOpener.open(url, environment: ["BROWSER": "\(script) -x", "PATH": directory.path + ":/usr/bin:/bin"]))
        while !FileManager.default.fileExists(atPath: log), Date() < deadline.addingTimeInterval(5) { usleep(10_000) }
        XCTAssertEqual(try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init), ["-x", url])
    }
}
