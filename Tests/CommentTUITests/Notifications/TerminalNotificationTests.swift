import XCTest
import ScrollEngine
@testable import CommentTUI

/// The notification's escape: which one a terminal takes, its exact bytes, and hostile text
/// that can never end it early or add one of its own.
final class TerminalNotificationTests: XCTestCase {
    typealias Style = TerminalNotification.Style

    func testTheStyleComesFromTheTerminalsName() {
        let cases: [([String: String], Style)] = [
            ([:], .bell),
            (["TERM": "xterm-256color"], .bell),
            (["TERM": "xterm-kitty"], .osc99),
            (["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"], .osc99),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"], .osc777),
            (["TERM": "wezterm"], .osc777),
            (["TERM": "foot"], .osc777),
            (["TERM": "foot-extra"], .osc777),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .osc9),
            (["TERM": "xterm-ghostty", "TERM_PROGRAM": "ghostty"], .osc9),
            (["TERM": "xterm-ghostty"], .osc9),
            (["TERM": "rxvt-unicode-256color"], .bell),
            (["TERM": "xterm-256color", "KONSOLE_VERSION": "230804"], .bell),
            (["TERM": "xterm-256color", "VTE_VERSION": "7600"], .bell),
            // Inside tmux or screen, whatever is outside.
            (["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "TMUX": "/tmp/tmux-1000/default,1,0"], .bell),
            (["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1000/default,1,0"], .bell),
            (["TERM": "screen-256color", "KITTY_WINDOW_ID": "1"], .bell),
            (["TERM": "foot", "STY": "1234.pts-0"], .bell),
            // Forced by the user, for a terminal not known here.
            (["TERM": "xterm-256color", "COMMENT_TUI_NOTIFY": "osc777"], .osc777),
            (["TERM": "xterm-kitty", "COMMENT_TUI_NOTIFY": "bell"], .bell),
            (["TERM": "xterm-kitty", "COMMENT_TUI_NOTIFY": "loud"], .osc99),
        ]
        for (environment, style) in cases {
            XCTAssertEqual(TerminalNotification.style(environment: environment), style, "\(environment)")
        }
        XCTAssertTrue(TerminalNotification.isTurnedOff(environment: ["COMMENT_TUI_NOTIFY": "0"]))
        XCTAssertFalse(TerminalNotification.isTurnedOff(environment: ["COMMENT_TUI_NOTIFY": "1"]))
    }

    func testEachStylesBytes() {
        let text = NotificationText(title: "Design", body: "Bo: look at this")
        func bytes(_ style: Style, _ id: Int = 1) -> String { String(decoding: TerminalNotification.bytes(text, style: style, identifier: id), as: UTF8.self) }
        XCTAssertEqual(bytes(.osc777), "\u{1B}]777;notify;Design;Bo: look at this\u{1B}\\")
        XCTAssertEqual(bytes(.osc9), "\u{1B}]9;Design: Bo: look at this\u{1B}\\")
        XCTAssertEqual(bytes(.osc99, 7), "\u{1B}]99;i=7:d=0;Design\u{1B}\\\u{1B}]99;i=7:d=1:p=body;Bo: look at this\u{1B}\\")
        XCTAssertEqual(bytes(.bell), "\u{07}")
        let untitled = NotificationText(title: "\u{1B}\u{07}", body: "x")
        XCTAssertEqual(String(decoding: TerminalNotification.bytes(untitled, style: .osc777), as: UTF8.self),
                       "\u{1B}]777;notify;comment-tui;x\u{1B}\\", "a title of nothing but controls")
    }

    /// Every C0 and C1 control, DEL, ESC, BEL, ST (7-bit and 8-bit), bidi controls and `;` in
    /// a name or a body: what is left between the escape's own bytes has none of them.
    func testHostileTextAddsNoControlAndNoField() {
        var hostile = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        hostile += "\u{7F}" + (0x80...0x9F).map { String(UnicodeScalar($0)!) }.joined()
        hostile += "\u{1B}\\ \u{1B}]0;pwned\u{07} \u{9C} \u{9D}8;;https://evil\u{9C} a;b;c \u{202E}gnp.exe\u{202C} \u{2066}x\u{2069}"
        let text = NotificationText(title: "Room \(hostile)", body: "Eve\(hostile): \(hostile)")
        for style in Style.allCases where style != .bell {
            let bytes = TerminalNotification.bytes(text, style: style)
            let (inner, pieces) = Self.unframed(bytes, style: style)
            XCTAssertEqual(pieces, style == .osc99 ? 2 : 1, "\(style): one notification's escapes, no more")
            let scalars = String(decoding: inner, as: UTF8.self).unicodeScalars
            XCTAssertFalse(scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(style): \(String(decoding: inner, as: UTF8.self).debugDescription)")
            XCTAssertFalse(scalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) }, "\(style)")
            XCTAssertFalse(scalars.contains(";"), "\(style): no field of its own")
            XCTAssertTrue(String(decoding: inner, as: UTF8.self).contains("Room"), "\(style)")
        }
    }

    /// Two notifications in kitty's escape have identifiers of their own: the second does not
    /// replace the first.
    func testKittysNotificationsAreToldApart() {
        var notifications = DesktopNotifications(policy: NotificationPolicy(interval: 0), style: .osc99)
        func arrival(_ thread: String) -> NotificationArrival {
            NotificationArrival(thread: .file(path: thread), threadName: thread, authorName: "Bo", text: "hi", callsForReader: true,
                                isOnScreen: true, terminalFocused: false)
        }
        let first = notifications.escape(for: arrival("/a"), at: .zero).map { String(decoding: $0, as: UTF8.self) }
        let second = notifications.escape(for: arrival("/b"), at: .zero).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(first?.hasPrefix("\u{1B}]99;i=1:d=0;/a"), true, first ?? "none")
        XCTAssertEqual(second?.hasPrefix("\u{1B}]99;i=2:d=0;/b"), true, second ?? "none")
        XCTAssertEqual(notifications.raised, 2)
    }

    func testFieldsAreBounded() {
        let text = NotificationText(title: String(repeating: "T", count: 10_000), body: String(repeating: "b ", count: 10_000))
        let bytes = TerminalNotification.bytes(text, style: .osc777)
        XCTAssertLessThan(bytes.count, 3 * (TerminalNotification.titleLimit + TerminalNotification.bodyLimit) + 32)
        let shown = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(shown.contains(String(repeating: "T", count: TerminalNotification.titleLimit - 1) + "…;"), shown)
    }

    /// The text inside the escapes' frames (their own `ESC ] N ;…` heads, metadata and ST taken
    /// off), and how many escapes there were.
    static func unframed(_ bytes: [UInt8], style: Style) -> (text: [UInt8], escapes: Int) {
        let text = String(decoding: bytes, as: UTF8.self)
        let heads: [String] = switch style {
        case .osc777: ["\u{1B}]777;notify;"]
        case .osc9: ["\u{1B}]9;"]
        case .osc99: ["\u{1B}]99;i=1:d=0;", "\u{1B}]99;i=1:d=1:p=body;"]
        case .bell: []
        }
        var rest = text[...], inner = "", escapes = 0
        for head in heads {
            guard rest.hasPrefix(head), let end = rest.range(of: "\u{1B}\\") else { return (Array(text.utf8), 0) }
            var field = String(rest[rest.index(rest.startIndex, offsetBy: head.count)..<end.lowerBound])
            if style == .osc777 { field = field.replacingOccurrences(of: ";", with: "", options: [], range: field.range(of: ";")) }
            inner += field
            rest = rest[end.upperBound...]
            escapes += 1
        }
        return rest.isEmpty ? (Array(inner.utf8), escapes) : (Array(text.utf8), 0)
    }
}
