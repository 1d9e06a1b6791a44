import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// Random bytes and random, truncated and oversized CSI, SS3, SGR and X10 mouse and bracketed
/// paste sequences, split at random across reads and interleaved with quiet periods: the decoder
/// never traps, its events are sane, and afterwards a key always comes through (issue 22, item 2).
///
/// Seeds run one after another until the budget is spent; a failure names the seed.
final class InputDecoderFuzzTests: XCTestCase {
    /// The issue asks for a minute; CI runs 20 s (about a third of the whole suite's budget for
    /// fuzzing, with the composer's), which covers tens of thousands of streams in a debug build.
    /// `DECODER_FUZZ_SECONDS=60` runs the full minute by hand.
    static let budget = TimeInterval(ProcessInfo.processInfo.environment["DECODER_FUZZ_SECONDS"] ?? "") ?? 20

    func testRandomInputNeverTrapsAndYieldsSaneEvents() {
        let start = Date()
        var seed: UInt64 = 1
        var bytes = 0
        while Date().timeIntervalSince(start) < Self.budget {
            var random = SeededRandom(seed: seed)
            let stream = Self.randomStream(&random)
            bytes += stream.count
            if let failure = Self.check(stream, random: &random) {
                return XCTFail("seed \(seed): \(failure); stream \(Array(stream.prefix(200)))")
            }
            seed += 1
        }
        let elapsed = Date().timeIntervalSince(start)
        print("decoder fuzz: \(seed - 1) streams, \(bytes / 1000) KB in \(String(format: "%.1f", elapsed)) s (\(Int(Double(seed - 1) / elapsed)) streams/s)")
        XCTAssertGreaterThan(seed, 100)
    }

    /// Feeds `stream` in random reads with random quiet periods; returns what was wrong.
    static func check(_ stream: [UInt8], random: inout SeededRandom) -> String? {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        var i = 0
        while i < stream.count {
            let n = 1 + random.below(64)
            events += decoder.feed(stream[i..<min(stream.count, i + n)])
            i += n
            if random.below(8) == 0 { events += decoder.inputWasQuiet(for: [0.001, 0.03, 0.5, 1.0, 5][random.below(5)]) }
        }
        // A long quiet: nothing may stay pending, and the next Ctrl-C is a key.
        events += decoder.inputWasQuiet(for: 2)
        // A paste ended by its quiet second may still get its rest for a while, no longer.
        if let wait = decoder.quietTimeout, wait > InputDecoder.pasteResumeWindow { return "waits \(wait) s after a quiet period" }
        events += decoder.inputWasQuiet(for: InputDecoder.pasteResumeWindow)
        if let wait = decoder.quietTimeout { return "still waits \(wait) s after a long quiet period" }
        let interrupt = decoder.feed([0x03])
        if interrupt != [.key(.ctrl("c"))] { return "Ctrl-C after the stream gave \(interrupt)" }
        for event in events {
            switch event {
            case .mouse(let mouse):
                guard (0..<InputDecoder.maxParameter).contains(mouse.column), (0..<InputDecoder.maxParameter).contains(mouse.row) else {
                    return "mouse at column \(mouse.column), row \(mouse.row)"
                }
            case .modeReport(let mode, let value):
                guard (0...InputDecoder.maxParameter).contains(mode), (0...InputDecoder.maxParameter).contains(value) else {
                    return "mode report \(mode) = \(value)"
                }
            case .paste(let text):
                if text.utf8.count > InputDecoder.maxPasteBytes { return "a paste of \(text.utf8.count) bytes" }
            default: break
            }
        }
        return nil
    }

    static func randomStream(_ random: inout SeededRandom) -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<(1 + random.below(24)) { out += piece(&random) }
        return out
    }

    static func number(_ random: inout SeededRandom) -> String {
        switch random.below(6) {
        case 0: return ""
        case 1: return "9223372036854775808"
        case 2: return String(repeating: "9", count: 1 + random.below(40))
        case 3: return String(UInt64.max)
        default: return String(random.below(300))
        }
    }

    static func params(_ random: inout SeededRandom) -> String {
        (0..<random.below(5)).map { _ in number(&random) }.joined(separator: random.below(4) == 0 ? ":" : ";")
    }

    /// One piece of input, maybe cut short.
    static func piece(_ random: inout SeededRandom) -> [UInt8] {
        let esc = "\u{1B}"
        var s: [UInt8]
        switch random.below(12) {
        case 0: s = (0..<random.below(16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 1: s = Array("\(esc)[<\(number(&random));\(number(&random));\(number(&random))\(random.pick(["M", "m"]))".utf8)
        case 2: s = Array("\(esc)[\(params(&random))\(random.pick(["A", "B", "~", "u", "Z", "I", "O", "H", "F", "$y"]))".utf8)
        case 3: s = Array("\(esc)[?\(params(&random))$y".utf8)
        case 4: s = Array("\(esc)O".utf8) + [random.pick([0x41, 0x50, 0x4D, 0x7E, 0x1B])]
        case 5: s = Array("\(esc)[M".utf8) + (0..<3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 6: s = Array("\(esc)[200~".utf8) + Array(random.pick(["text", "a\r\nb", "\(esc)[A", "\u{3}", "日本"]).utf8)
        case 7: s = Array("\(esc)[201~".utf8)
        case 8: s = [0x1B]
        case 9: s = Array(random.pick(["é", "日", "👩‍💻", "\u{301}"]).utf8)
        case 10: s = Array("\(esc)[\(String(repeating: "1", count: random.below(600)))".utf8)
        default: s = Array(random.pick(["a", "\r", "\u{3}", "\u{7F}", " "]).utf8)
        }
        // Truncated at a random point now and then.
        if random.below(4) == 0, !s.isEmpty { s = Array(s.prefix(random.below(s.count))) }
        return s
    }
}
