import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel
import CommentTUITestSupport

/// Numbers too big for an `Int` and a bracketed paste that never ends (issue 22, items 2 and 5).
final class InputDecoderLimitTests: XCTestCase {
    private func decode(_ s: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(s.utf8)) + decoder.flush()
    }

    private func key(_ k: Key, _ m: KeyModifiers = []) -> InputEvent { .key(KeyPress(k, m)) }

    /// 2^63 wrapped to `Int.min`, and `- 1` trapped.
    func testParametersPastIntMaxAreClampedNotWrapped() {
        let huge = "9223372036854775808"
        let max = InputDecoder.maxParameter
        XCTAssertEqual(decode("\u{1B}[<0;\(huge);5M"), [.mouse(MouseEvent(.left, .press, column: max - 1, row: 4))])
        XCTAssertEqual(decode("\u{1B}[<0;5;\(huge)\(huge)m"), [.mouse(MouseEvent(.left, .release, column: 4, row: max - 1))])
        XCTAssertEqual(decode("\u{1B}[1;\(huge)A"), [key(.up, KeyModifiers(xtermParameter: max))])
        XCTAssertEqual(decode("\u{1B}[\(huge)~x"), [key(.character("x"))])
        XCTAssertEqual(decode("\u{1B}[\(huge);\(huge)u"), [], "no such key code")
        XCTAssertEqual(decode("\u{1B}[27;\(huge);\(huge)~"), [])
        XCTAssertEqual(decode("\u{1B}[?\(huge);\(huge)$y"), [.modeReport(mode: max, value: max)])
    }

    func testAnEndlessSequenceIsDroppedAndKeysComeThrough() {
        var decoder = InputDecoder()
        var events = decoder.feed(Array("\u{1B}[".utf8))
        for _ in 0..<100 { events += decoder.feed(Array(repeating: UInt8(ascii: "7"), count: 1000)) }
        events += decoder.feed([0x03])
        XCTAssertEqual(events.last, .key(.ctrl("c")))
        XCTAssertFalse(decoder.hasPendingEscape)
    }

    /// The paste never ends: a second without input ends it, and the next key is a key.
    func testAPasteWithoutItsEndEndsAfterAQuietSecond() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[200~half a paste\u{1B}[20".utf8)), [])
        XCTAssertEqual(decoder.quietTimeout, InputDecoder.pasteQuietTimeout)
        XCTAssertEqual(decoder.inputWasQuiet(for: InputDecoder.pasteQuietTimeout - 0.001), [])
        XCTAssertEqual(decoder.feed([0x03]), [], "inside the paste Ctrl-C is pasted text")
        XCTAssertEqual(decoder.inputWasQuiet(for: InputDecoder.pasteQuietTimeout), [.paste("half a paste\u{1B}[20\u{03}")])
        XCTAssertEqual(decoder.quietTimeout, InputDecoder.pasteResumeWindow, "the rest of it may still come")
        XCTAssertEqual(decoder.feed([0x03]), [.key(.ctrl("c"))])
        XCTAssertNil(decoder.quietTimeout, "a key ended that wait")
        // A pending Escape still waits only its own timeout.
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.quietTimeout, InputDecoder.escapeTimeout)
        XCTAssertEqual(decoder.inputWasQuiet(for: InputDecoder.escapeTimeout), [key(.escape)])
    }

    /// The paste stalls for a second (a slow connection), then the rest comes: it is still pasted
    /// text, so its line breaks never send a half-pasted draft; its end marker, another key or
    /// ten quiet seconds end the wait.
    func testTheRestOfAStalledPasteIsStillPastedText() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[200~first half".utf8)), [])
        XCTAssertEqual(decoder.inputWasQuiet(for: InputDecoder.pasteQuietTimeout), [.paste("first half")])
        XCTAssertEqual(decoder.quietTimeout, InputDecoder.pasteResumeWindow)
        XCTAssertEqual(decoder.feed(Array("\rsecond \u{E9}".utf8).dropLast()), [.paste("\nsecond ")], "a cut é waits")
        XCTAssertEqual(decoder.feed([0xA9, 0x0D]), [.paste("\u{E9}\n")])
        XCTAssertEqual(decoder.feed(Array("end\u{1B}[201~\r".utf8)), [.paste("end"), key(.enter)], "the end marker ends the wait")
        // Another key ends it too, and is a key.
        var other = InputDecoder()
        _ = other.feed(Array("\u{1B}[200~cut".utf8))
        _ = other.inputWasQuiet(for: InputDecoder.pasteQuietTimeout)
        XCTAssertEqual(other.feed([0x03, 0x0D]), [.key(.ctrl("c")), key(.enter)])
        // So do ten quiet seconds.
        var quiet = InputDecoder()
        _ = quiet.feed(Array("\u{1B}[200~cut".utf8))
        _ = quiet.inputWasQuiet(for: InputDecoder.pasteQuietTimeout)
        XCTAssertEqual(quiet.inputWasQuiet(for: InputDecoder.pasteResumeWindow), [])
        XCTAssertNil(quiet.quietTimeout)
        XCTAssertEqual(quiet.feed([0x0D]), [key(.enter)])
    }

    /// The paste never ends and bytes keep coming: it goes on in pieces of 1 MiB, each a paste
    /// (its line breaks are never Enter), memory stays bounded, and a quiet second ends it.
    func testAPasteLongerThanTheLimitGoesOnInPiecesAndStaysAPaste() {
        var decoder = InputDecoder()
        var events = decoder.feed(Array("\u{1B}[200~".utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 4095) + [0x0D]
        for _ in 0..<(InputDecoder.maxPasteBytes / chunk.count) - 1 { events += decoder.feed(chunk) }
        XCTAssertEqual(events, [])
        events += decoder.feed(chunk + chunk + [0x03])
        XCTAssertEqual(events.count, 1)
        guard case .paste(let text) = events.first else { return XCTFail("\(events.first as Any)") }
        XCTAssertEqual(text.utf8.count, InputDecoder.maxPasteBytes)
        XCTAssertTrue(decoder.isInPaste, "the rest is still pasted text, Enter and Ctrl-C included")
        XCTAssertEqual(decoder.inputWasQuiet(for: InputDecoder.pasteQuietTimeout).count, 1, "a quiet second ends it")
        XCTAssertEqual(decoder.feed([0x03]), [.key(.ctrl("c"))])
        // A paste whose end comes after the limit: two pieces, then keys again.
        var late = InputDecoder()
        let body = String(repeating: "é", count: InputDecoder.maxPasteBytes / 2 + 10)
        let cut = late.feed(Array("\u{1B}[200~\(body)\u{1B}[201~x".utf8))
        XCTAssertEqual(cut.count, 3, "two pieces, then x")
        let joined = cut.compactMap { if case .paste(let text) = $0 { text } else { nil } }.joined()
        XCTAssertEqual(joined, body, "no character split between the pieces")
        XCTAssertEqual(cut.last, key(.character("x")))
    }

    /// The loop tells the decoder how long input was quiet, by the injected clock.
    func testTheLoopEndsAStuckPasteByTheInjectedClock() throws {
        var clock = 100.0
        let (app, screen) = ThreadFixture.numbered(5).open()
        let pipe = try FileDescriptor.pipe()
        pipe.read.setNonBlockingAndCloseOnExec()
        defer { pipe.read.close(); pipe.write.close() }
        let loop = AppLoop(app: app, session: screen, input: pipe.read, signals: nil, now: { clock },
                           wallClock: { Date(timeIntervalSince1970: 1_744_884_030) })
        try pipe.write.writeAll(Array("\u{1B}[200~stuck".utf8))
        XCTAssertNil(try loop.runOnce())
        XCTAssertEqual(app.draft, "")
        XCTAssertEqual(loop.timeout()!, InputDecoder.pasteQuietTimeout, accuracy: 1e-9)
        clock += InputDecoder.pasteQuietTimeout
        XCTAssertEqual(loop.timeout(), 0)
        XCTAssertNil(try loop.runOnce())
        XCTAssertEqual(app.draft, "stuck")
        try pipe.write.writeAll([0x03])
        XCTAssertEqual(try loop.runOnce(), AppLoop.Exit.quit, "Ctrl-C quits again")
    }
}
