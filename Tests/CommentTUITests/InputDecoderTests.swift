import XCTest
@testable import CommentTUI
@testable import ThreadModel

final class InputDecoderTests: XCTestCase {
    private func decode(_ s: String, flush: Bool = false) -> [InputEvent] {
        var decoder = InputDecoder()
        var events = decoder.feed(Array(s.utf8))
        if flush { events += decoder.flush() }
        return events
    }

    private func key(_ k: Key, _ m: KeyModifiers = []) -> InputEvent { .key(KeyPress(k, m)) }

    func testKeyTable() {
        let table: [(String, InputEvent)] = [
            ("a", key(.character("a"))),
            ("\r", key(.enter)),
            ("\n", .key(.ctrl("j"))),
            ("\t", key(.tab)),
            ("\u{7F}", key(.backspace)),
            ("\u{08}", key(.backspace)),
            ("\u{03}", .key(.ctrl("c"))),
            ("\u{04}", .key(.ctrl("d"))),
            ("\u{1A}", .key(.ctrl("z"))),
            ("\u{1F}", .key(.ctrl("_"))),
            ("\u{1B}[A", key(.up)),
            ("\u{1B}[B", key(.down)),
            ("\u{1B}[C", key(.right)),
            ("\u{1B}[D", key(.left)),
            ("\u{1B}OA", key(.up)),
            ("\u{1B}[H", key(.home)),
            ("\u{1B}[F", key(.end)),
            ("\u{1B}[1~", key(.home)),
            ("\u{1B}[4~", key(.end)),
            ("\u{1B}[5~", key(.pageUp)),
            ("\u{1B}[6~", key(.pageDown)),
            ("\u{1B}[3~", key(.delete)),
            ("\u{1B}[2~", key(.insert)),
            ("\u{1B}OP", key(.function(1))),
            ("\u{1B}[11~", key(.function(1))),
            ("\u{1B}[21~", key(.function(10))),
            ("\u{1B}[24~", key(.function(12))),
            ("\u{1B}[1;5A", key(.up, .ctrl)),
            ("\u{1B}[1;5B", key(.down, .ctrl)),
            ("\u{1B}[1;2A", key(.up, .shift)),
            ("\u{1B}[1;3B", key(.down, .alt)),
            ("\u{1B}[1;5H", key(.home, .ctrl)),
            ("\u{1B}[1;5F", key(.end, .ctrl)),
            ("\u{1B}[5;5~", key(.pageUp, .ctrl)),
            ("\u{1B}[1;6C", key(.right, [.ctrl, .shift])),
            ("\u{1B}[Z", key(.backTab)),
            ("\u{1B}u", key(.character("u"), .alt)),
            ("\u{1B}\r", key(.enter, .alt)),
            ("\u{1B}\u{7F}", key(.backspace, .alt)),
            ("\u{1B}[13;3u", key(.enter, .alt)),
            ("\u{1B}[27;5;106~", key(.character("j"), .ctrl)),
            ("é", key(.character("é"))),
            ("日", key(.character("日"))),
            ("\u{1B}[I", .focus(true)),
        ]
        for (input, expected) in table {
            XCTAssertEqual(decode(input), [expected], "input \(input.debugDescription)")
        }
    }

    func testModeReportsAnswerTheSynchronizedOutputQuery() {
        XCTAssertEqual(decode("\u{1B}[?2026;2$y"), [.modeReport(mode: 2026, value: 2)])
        XCTAssertEqual(decode("\u{1B}[?2026;0$yx"), [.modeReport(mode: 2026, value: 0), key(.character("x"))])
        XCTAssertEqual(decode("\u{1B}[?2026;1$"), [], "incomplete: waits for the final byte")
        XCTAssertEqual(decode("\u{1B}[2026;1$y"), [], "not private: no report (and no key)")
    }

    func testCursorReportsAreTheProbesUntilTheAnswerToItsLastQuery() {
        // xterm sends Ctrl-F3 as CSI 1 ; 5 R, a cursor position report at row 1, column 5.
        XCTAssertEqual(decode("\u{1B}[1;5R"), [key(.function(3), .ctrl)])
        var decoder = InputDecoder()
        decoder.awaitProbeAnswers()
        // Split across reads, a key typed between them: every report until the answer to the
        // probe's last query (DA1), however many there are.
        XCTAssertEqual(decoder.feed(Array("x\u{1B}[12;3".utf8)), [key(.character("x"))])
        XCTAssertEqual(decoder.feed(Array("R\u{1B}[1;5R\u{1B}[1;5R\u{1B}[1;3R\u{1B}[?62;22".utf8)),
                       [.cursorReport(row: 12, column: 3), .cursorReport(row: 1, column: 5), .cursorReport(row: 1, column: 5),
                        .cursorReport(row: 1, column: 3)])
        XCTAssertTrue(decoder.awaitsProbeAnswers, "the last answer is not complete yet")
        XCTAssertEqual(decoder.feed(Array("c\u{1B}[1;5R".utf8)), [.deviceAttributes, key(.function(3), .ctrl)],
                       "after it, in the same read, a key again")
        XCTAssertFalse(decoder.awaitsProbeAnswers)
        decoder.awaitProbeAnswers()
        XCTAssertEqual(decoder.feed(Array("\u{1B}[?1;5R\u{1B}[5R".utf8)), [key(.function(3), .ctrl), key(.function(3))],
                       "a private or one-number sequence is no report")
        decoder.awaitProbeAnswers(false)
        XCTAssertEqual(decoder.feed(Array("\u{1B}[3;7R".utf8)), [key(.function(3), [.alt, .ctrl])], "given up: a key again")
    }

    func testTheAnswerToPrimaryDeviceAttributesIsAReportNeverKeys() {
        // xterm, tmux 3.3a and the Linux console, with and without the probe awaiting it.
        for answer in ["\u{1B}[?62;22c", "\u{1B}[?1;2c", "\u{1B}[?6c", "\u{1B}[?64;1;2;6;9;15;18;21;22c"] {
            XCTAssertEqual(decode(answer + "x"), [.deviceAttributes, key(.character("x"))], answer.debugDescription)
        }
        XCTAssertEqual(decode("\u{1B}[?1;2"), [], "incomplete: waits for the final byte")
    }

    func testSGRMouse() {
        XCTAssertEqual(decode("\u{1B}[<0;10;5M"), [.mouse(MouseEvent(.left, .press, column: 9, row: 4))])
        XCTAssertEqual(decode("\u{1B}[<0;10;5m"), [.mouse(MouseEvent(.left, .release, column: 9, row: 4))])
        XCTAssertEqual(decode("\u{1B}[<32;11;5M"), [.mouse(MouseEvent(.left, .drag, column: 10, row: 4))])
        XCTAssertEqual(decode("\u{1B}[<64;3;7M"), [.mouse(MouseEvent(.wheelUp, .press, column: 2, row: 6))])
        XCTAssertEqual(decode("\u{1B}[<65;3;7M"), [.mouse(MouseEvent(.wheelDown, .press, column: 2, row: 6))])
        XCTAssertEqual(decode("\u{1B}[<69;3;7M"), [.mouse(MouseEvent(.wheelDown, .press, column: 2, row: 6, modifiers: .shift))])
        XCTAssertEqual(decode("\u{1B}[<2;300;100M"), [.mouse(MouseEvent(.right, .press, column: 299, row: 99))])
    }

    func testX10MouseForTerminalsWithoutSGR() {
        XCTAssertEqual(decode("\u{1B}[M \u{2A}\u{25}"), [.mouse(MouseEvent(.left, .press, column: 9, row: 4))])
        XCTAssertEqual(decode("\u{1B}[M#\u{2A}\u{25}"), [.mouse(MouseEvent(.none, .release, column: 9, row: 4))])
    }

    func testBracketedPasteKeepsEscapesAndNormalisesLineEnds() {
        let events = decode("x\u{1B}[200~line 1\r\nline 2\u{1B}[31m\u{1B}[201~y")
        XCTAssertEqual(events, [key(.character("x")), .paste("line 1\nline 2\u{1B}[31m"), key(.character("y"))])
    }

    func testPasteSplitAcrossReads() {
        var decoder = InputDecoder()
        var events = decoder.feed(Array("\u{1B}[200~hel".utf8))
        XCTAssertEqual(events, [])
        XCTAssertFalse(decoder.hasPendingEscape, "a paste in progress never times out")
        events += decoder.feed(Array("lo\u{1B}[20".utf8))
        events += decoder.feed(Array("1~".utf8))
        XCTAssertEqual(events, [.paste("hello")])
    }

    func testSequencesSplitAcrossReads() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertTrue(decoder.hasPendingEscape)
        XCTAssertEqual(decoder.feed(Array("[1;5".utf8)), [])
        XCTAssertEqual(decoder.feed(Array("A".utf8)), [key(.up, .ctrl)])
        XCTAssertEqual(decoder.feed([0xE6, 0x97]), [])
        XCTAssertEqual(decoder.feed([0xA5]), [key(.character("日"))])
    }

    func testLoneEscapeIsAnEscapeAfterTheTimeout() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.flush(), [key(.escape)])
        XCTAssertFalse(decoder.hasPendingEscape)
        XCTAssertEqual(decode("\u{1B}\u{1B}[A"), [key(.escape), key(.up)])
    }

    func testInvalidUTF8BecomesReplacementCharacter() {
        var decoder = InputDecoder()
        XCTAssertEqual(decoder.feed([0xFF, 0x41]), [key(.character("\u{FFFD}")), key(.character("A"))])
        XCTAssertEqual(decoder.feed([0xC3, 0x41]), [key(.character("\u{FFFD}")), key(.character("A"))])
    }

    func testGarbageNeverStallsTheDecoder() {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<500 {
            var decoder = InputDecoder()
            let bytes = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = decoder.feed(bytes)
            _ = decoder.flush()
            // After a flush only an unfinished paste may remain; a fresh key must come through.
            if decoder.hasPendingEscape { XCTFail("pending bytes after flush: \(bytes)") }
        }
    }
}
