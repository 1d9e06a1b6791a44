import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// The verification panel: what each stage shows and what its keys do, read as the screen shows it.
final class VerificationPanelTests: XCTestCase {
    private let legend: [Character: CellStyle] = [
        "T": Theme.pickerTitle.adding(.bold), "t": Theme.pickerTitle,
        "w": Theme.pickerRow, "W": Theme.pickerRow.adding(.bold), "d": Theme.pickerRow.adding(.dim),
    ]
    /// The spec's seven emoji for SAS bytes 0, 1, 2, 4, 8, 16, 32 (dog, cat, lion, unicorn, rooster, hat, …).
    private let emoji: [VerificationPrompt.Symbol] = [
        .init(emoji: "🐶", name: "Dog"), .init(emoji: "🐱", name: "Cat"), .init(emoji: "🦁", name: "Lion"),
        .init(emoji: "🦄", name: "Unicorn"), .init(emoji: "🐓", name: "Rooster"), .init(emoji: "🎧", name: "Headphones"),
        .init(emoji: "🔑", name: "Key"),
    ]

    private let blank = String(repeating: " ", count: 80)
    private let fill = String(repeating: "w", count: 80)

    private func prompt(_ stage: VerificationPrompt.Stage, own: Bool = false) -> VerificationPrompt {
        own ? VerificationPrompt(user: "@ann:hs", displayName: "Ann", device: "PHONE", isOwnDevice: true, stage: stage)
            : VerificationPrompt(user: "@bo:hs", displayName: "Bo", device: "BODEV", isOwnDevice: false, stage: stage)
    }

    private func draw(_ prompt: VerificationPrompt, columns: Int = 80, rows: Int = 12) -> CellBuffer {
        var buffer = CellBuffer(columns: columns, rows: rows)
        VerificationPanelView(panel: VerificationPanel(prompt: prompt)).draw(into: &buffer)
        return buffer
    }

    func testTheEmojiToCompareSitOverTheirNamesWithTheNumbersAndTheKeys() {
        let screen = draw(prompt(.compare(emoji: emoji, decimals: [1234, 5678, 9012])))
        assertScreen(screen, [
            "", "",
            " Verify Bo (@bo:hs)" + String(repeating: " ", count: 61), "TTTTTTTTTTTTTTTTTTT" + String(repeating: "t", count: 61),
            " Compare these emoji with Bo's screen:" + String(repeating: " ", count: 42), fill,
            blank, fill,
            "     🐶         🐱         🦁         🦄         🐓         🎧         🔑       ", fill,
            "    Dog        Cat        Lion     Unicorn    Rooster   Headphones    Key       ",
            "wwwwWWWwwwwwwwwWWWwwwwwwwwWWWWwwwwwWWWWWWWwwwwWWWWWWWwwwWWWWWWWWWWwwwwWWWwwwwwww",
            blank, fill,
            " or the numbers 1234 · 5678 · 9012" + String(repeating: " ", count: 46), fill,
            blank, fill,
            " y they match · n they differ · Esc cancel" + String(repeating: " ", count: 38),
            "w" + String(repeating: "d", count: 41) + String(repeating: "w", count: 38),
            "", "", "", "",
        ], legend: legend)
    }

    /// The panel's text rows, without their trailing blanks.
    private func text(_ buffer: CellBuffer) -> [String] {
        ScreenLines(buffer).rows.map { String($0.text.reversed().drop { $0 == " " }.reversed()) }.filter { !$0.isEmpty }
    }

    func testOnANarrowScreenTheEmojiWrapAndTheTextToo() {
        let screen = draw(prompt(.compare(emoji: emoji, decimals: [1234, 5678, 9012])), columns: 40, rows: 16)
        XCTAssertEqual(text(screen), [
            " Verify Bo (@bo:hs)",
            " Compare these emoji with Bo's screen:",
            "       🐶         🐱         🦁",
            "      Dog        Cat        Lion",
            "       🦄         🐓         🎧",
            "    Unicorn    Rooster   Headphones",
            "                  🔑",
            "                 Key",
            " or the numbers 1234 · 5678 · 9012",
            " y they match · n they differ · Esc",
            " cancel",
        ])
    }

    func testARequestAsksToAcceptAndNamesTheOwnDeviceAskingForThisOne() {
        XCTAssertEqual(text(draw(prompt(.asked, own: true), columns: 60)), [
            " Verify your device PHONE",
            " your other device asks to verify this device: compare",
            " emoji on both screens to know no one is in between.",
            " Enter, y accept · n, Esc decline",
        ])
        XCTAssertEqual(text(draw(prompt(.waiting(for: "to accept")))), [
            " Verify Bo (@bo:hs)", " Waiting for Bo to accept…", " Esc cancel",
        ])
    }

    func testAskingOurOtherDevicesNamesThisDeviceUntilOneAnswers() {
        // Alt-V at home asks all our other devices: none is named until one answers.
        let asking = VerificationPrompt(user: "@ann:hs", displayName: nil, device: nil, isOwnDevice: true, stage: .waiting(for: "to accept"))
        XCTAssertEqual(text(draw(asking)), [" Verify this device", " Waiting for your other device to accept…", " Esc cancel"])
        var answered = asking
        answered.device = "PHONE"
        XCTAssertEqual(text(draw(answered)).first, " Verify your device PHONE")
    }

    func testTheEndSaysWhatWasDoneWithTheTrust() {
        // What the verification left (marked here, signed or not) is said, not only that it matched.
        var done = prompt(.verified, own: true)
        done.note = "device PHONE marked verified here; the signature did not go up: \u{1B}[2Jrefused"
        XCTAssertEqual(text(draw(done)), [
            " Verify your device PHONE", " ✓ your device PHONE is verified: each trusts the other.",
            " device PHONE marked verified here; the signature did not go up:", #" \u{1B}[2Jrefused"#, " any key closes",
        ])
    }

    func testTheEndSaysVerifiedOrWhyNotAndAHostileNameOrReasonStaysText() {
        XCTAssertEqual(text(draw(prompt(.verified))), [" Verify Bo (@bo:hs)", " ✓ Bo (@bo:hs) is verified.", " any key closes"])
        let hostile = VerificationPrompt(user: "@eve:hs", displayName: "Eve\u{1B}]0;owned\u{07}", device: "E", isOwnDevice: false,
                                         stage: .cancelled(reason: "Eve\u{1B}[2J said the emoji differ"))
        let rows = text(draw(hostile))
        XCTAssertEqual(rows.first, #" Verify Eve\u{1B}]0;owned\u{7} (@eve:hs)"#)
        XCTAssertEqual(rows[1], #" ✗ Not verified: Eve\u{1B}[2J said the emoji differ"#)
        XCTAssertFalse(rows.joined().unicodeScalars.contains { $0.value < 0x20 }, "no control character reaches a cell")
    }

    func testEachKeyDoesWhatTheStageAllowsAndEnterNeverConfirmsEmoji() {
        let compare = VerificationPanel(prompt: prompt(.compare(emoji: emoji, decimals: [1, 2, 3])))
        XCTAssertEqual(compare.perform(.yes), .confirm)
        XCTAssertEqual(compare.perform(.no), .mismatch)
        XCTAssertEqual(compare.perform(.cancel), .cancel)
        XCTAssertEqual(compare.perform(.proceed), .hint("press y if the emoji match, n if they differ"))
        let asked = VerificationPanel(prompt: prompt(.asked))
        XCTAssertEqual([asked.perform(.yes), asked.perform(.proceed), asked.perform(.no), asked.perform(.cancel)],
                       [.accept, .accept, .cancel, .cancel])
        let waiting = VerificationPanel(prompt: prompt(.confirmed))
        XCTAssertEqual(waiting.perform(.yes), .hint("waiting for Bo · Esc cancels"))
        XCTAssertEqual(waiting.perform(.cancel), .cancel)
        for stage in [VerificationPrompt.Stage.verified, .cancelled(reason: "timed out")] {
            let over = VerificationPanel(prompt: prompt(stage))
            XCTAssertEqual([over.perform(.yes), over.perform(.no), over.perform(.proceed), over.perform(.cancel)], [.close, .close, .close, .close])
        }
        XCTAssertEqual(KeyMap.actions(for: KeyPress(.character("y")), in: [.verification]), [.verification(.yes)])
        XCTAssertEqual(KeyMap.actions(for: KeyPress(.escape), in: [.verification]).first, .verification(.cancel))
    }

    func testNumbersAloneWhenTheOtherSideOffersNoEmojiAndTheTrustNoteOnceVerified() {
        XCTAssertEqual(text(draw(prompt(.compare(emoji: [], decimals: [1234, 5678, 9012])))), [
            " Verify Bo (@bo:hs)", " Compare these numbers with Bo's screen:", " 1234 · 5678 · 9012",
            " y they match · n they differ · Esc cancel",
        ])
        var verified = prompt(.verified, own: true)
        verified.note = "signed with your self-signing key"
        XCTAssertEqual(text(draw(verified)), [
            " Verify your device PHONE", " ✓ your device PHONE is verified: each trusts the other.",
            " signed with your self-signing key", " any key closes",
        ])
    }
}
