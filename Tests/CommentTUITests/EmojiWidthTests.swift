import XCTest
@testable import CommentTUI

/// Every fully-qualified emoji of Unicode's emoji-test.txt (vendored from Debian's unicode-data)
/// must come out as cells whose width the layout and the C library agree on.
final class EmojiWidthTests: XCTestCase {
    static func fullyQualifiedEmoji() throws -> [String] {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "emoji-test", withExtension: "txt", subdirectory: "Data"))
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> String? in
            guard !line.hasPrefix("#"), let semicolon = line.firstIndex(of: ";"),
                  line[semicolon...].contains("fully-qualified") else { return nil }
            let codes = line[..<semicolon].split(separator: " ")
            let scalars = codes.compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    func testEveryFullyQualifiedEmojiHasAgreeingWidths() throws {
        let emoji = try Self.fullyQualifiedEmoji()
        XCTAssertGreaterThan(emoji.count, 3000)
        var substituted = 0
        for sequence in emoji {
            let clusters = DisplayWidth.clusters(of: sequence)
            XCTAssertFalse(clusters.isEmpty, sequence)
            if clusters.map(\.text).joined() != sequence { substituted += 1 }
            for cluster in clusters {
                let scalars = Array(cluster.text.unicodeScalars)
                // The C library's width of the lead is what ncurses uses for the cell…
                XCTAssertEqual(DisplayWidth.libcWidth(scalars[0]), cluster.width, "\(sequence): lead of \(cluster.text)")
                XCTAssertTrue((1...2).contains(cluster.width))
                // …and everything after it must be zero-width, or ncurses and the terminal part ways.
                for mark in scalars.dropFirst() {
                    XCTAssertEqual(DisplayWidth.libcWidth(mark), 0, "\(sequence): trailing U+\(String(mark.value, radix: 16))")
                }
                XCTAssertLessThanOrEqual(scalars.count, 1 + DisplayWidth.maxCombiningMarks)
                // Nothing that makes terminals re-measure a cluster survives.
                XCTAssertFalse(scalars.contains { $0.value == 0x200D || $0.value == 0xFE0F || DisplayWidth.isEmojiSequenceMarker($0) || DisplayWidth.isRegionalIndicator($0) }, sequence)
            }
        }
        print("emoji-test.txt: \(emoji.count) fully-qualified, \(substituted) substituted")
    }

    func testWidthsOfAWholeLineAddUp() {
        var buffer = CellBuffer(columns: 40, rows: 1)
        let text = "a👍🏽b🇫🇷c👨‍👩‍👧d"
        let end = buffer.write(text, column: 0, row: 0)
        XCTAssertEqual(end, DisplayWidth.width(of: text))
        XCTAssertEqual(end, 1 + 2 + 1 + 2 + 1 + 6 + 1)
        buffer._checkInvariants()
    }

    func testWhereTheTerminalDrawsThemWholeEmojiClustersStayAsWritten() {
        DisplayWidth.policy = .allIntact
        defer { DisplayWidth.policy = .substitute }
        for cluster in ["\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F1EB}\u{1F1F7}", "\u{2764}\u{FE0F}", "\u{1F44D}\u{1F3FD}",
                        "1\u{FE0F}\u{20E3}", "\u{1FAE0}"] {
            XCTAssertEqual(DisplayWidth.clusters(of: cluster), [DisplayCluster(text: cluster, width: 2)], cluster.debugDescription)
        }
        // One shape only: the others are still substituted.
        DisplayWidth.policy = GraphemePolicy(intact: [[.flag, .narrowLead]])
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F1EB}\u{1F1F7}").count, 1)
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}").map(\.text), ["\u{1F468}", "\u{1F469}", "\u{1F467}"])
        // Too long for a cell (a family of four is 25 bytes): substituted, never cut.
        DisplayWidth.policy = .allIntact
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}").count, 4)
        // Text characters and controls are untouched by the policy.
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{2764}"), [DisplayCluster(text: "\u{2764}", width: 1)])
        XCTAssertEqual(DisplayWidth.clusters(of: "\u{1B}").map(\.text), ["\u{241B}"])
    }
}
