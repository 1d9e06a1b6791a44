import Foundation
import XCTest
@testable import ThreadModel

/// Ctrl-S's matching (issue 28, item 3): case and diacritics folded alike in the query, a
/// decoded body and a raw line; the raw verdict never says no to a comment that matches, and
/// reads the canonical line exactly, so only other lines need decoding.
final class SearchPatternTests: XCTestCase {
    private let users = [User(id: "u1", handle: "zoe", name: "Zoë Ångström"), User(id: "u2", handle: "bo", name: "Bo")]
    private let created = Date(timeIntervalSince1970: 1_744_884_000)

    func testCaseAndDiacriticsFoldAlikeInQueryAndText() {
        let cases: [(query: String, text: String, matches: Bool)] = [
            ("zoe", "Hello ZOË!", true), ("ZOË", "hello zoe", true), ("zoe", "zo\u{0065}\u{0301}", true),
            ("straße", "STRASSE", true), ("STRASSE", "die Straße", true), ("fi", "ﬁne", true),
            ("ångström", "ANGSTROM", true), ("İstanbul", "istanbul", true), ("σ", "ΟΔΟΣ", true),
            ("日本", "ようこそ日本へ", true), ("日本", "日 本", false), ("zoe", "zo", false), ("z o", "zo", false),
            ("\u{0301}", "é", false),
        ]
        for (query, text, expected) in cases {
            XCTAssertEqual(SearchPattern(query: query, users: []).matches(text), expected, "\(query) in \(text)")
        }
    }

    func testTheFirstMatchIsFoundAtItsByteOffsetInTheText() {
        let pattern = SearchPattern(query: "STRASSE", users: [])
        XCTAssertEqual(pattern.firstMatch(in: "Ä straße ß"), 3)
        XCTAssertNil(pattern.firstMatch(in: "strase"))
        XCTAssertEqual(SearchPattern(query: "b", users: []).occurrences(in: Array("abcab".utf8)), [1, 4])
    }

    func testAnAuthorsNameOrHandleMatches() {
        let pattern = SearchPattern(query: "angstrom", users: users)
        XCTAssertEqual(pattern.authors, ["u1"])
        XCTAssertTrue(pattern.matches(Comment(id: "c", author: "u1", created: created, body: "nothing here")))
        XCTAssertFalse(pattern.matches(Comment(id: "c", author: "u2", created: created, body: "nothing here")))
        let line = canonical(Comment(id: "c", author: "u1", created: created, body: "nothing here"))
        XCTAssertEqual(verdict(pattern, line), .yes)
        XCTAssertEqual(verdict(pattern, canonical(Comment(id: "c", author: "u2", created: created, body: "nope"))), .no)
        XCTAssertEqual(verdict(pattern, Array(#"{"type":"comment","id":"c","author":"\u0075\u0031","created":"2025-04-17T10:00:00Z","body":"x"}"#.utf8)),
                       .undecided, "an author written with escapes is decoded")
    }

    /// Bodies of every kind of character, written canonically and in the ways other writers
    /// write them: the verdict never says no to a match or yes to a miss, and a canonical
    /// line is always decided.
    func testTheRawVerdictNeverMissesAMatchAndDecidesEveryCanonicalLine() {
        let pieces = ["a", "Zoe", "ZOË", "zoe\u{0301}", "é", "É", "e\u{0301}", "ß", "SS", "ﬁ", "\"", "\\", "/", "\n", "\t",
                      "\u{01}", "\u{7F}", "日本", "👩🏽‍💻", "😀", "K", "\u{212A}", " ", "\\u00e9", "x\"y"]
        let queries = ["zoe", "é", "e", "ss", "fi", "\"", "\\", "/", "日本", "😀", "k", "\\u00e9", "x\"y", "\n", "a zoe"]
        var random = SeededRandom(seed: 28)
        let decoder = ThreadRecordDecoder()
        var decided = 0, lines = 0
        for n in 0..<400 {
            let body = (0..<(1 + random.below(8))).map { _ in pieces[random.below(pieces.count)] }.joined()
            let comment = Comment(id: "c\(n)", author: "u2", created: created, body: body, edited: n % 5 == 0 ? created : nil)
            for (style, line) in writings(of: comment) {
                guard case .record(.comment(let decoded)) = decoder.decode(ArraySlice(line)) else { continue }
                for query in queries {
                    let pattern = SearchPattern(query: query, users: users)
                    let expected = pattern.matches(decoded)
                    let raw = verdict(pattern, line)
                    lines += 1
                    if raw != .undecided { decided += 1 }
                    XCTAssertNotEqual(raw, expected ? .no : .yes, "\(style) line \(String(decoding: line, as: UTF8.self)) for \(query)")
                    if style == "canonical" { XCTAssertNotEqual(raw, .undecided, "canonical line for \(query): \(body.debugDescription)") }
                }
            }
        }
        XCTAssertGreaterThan(decided, lines / 2)
    }

    func testLinesNotReadExactlyAreUndecided() {
        let pattern = SearchPattern(query: "zoe", users: [])
        let shapes = [
            #"{"type":"comment","id":"c","author":"u2","created":"2025-04-17T10:00:00Z","body":"x","body":"zoe"}"#,
            #"{"type":"comment", "id":"c","author":"u2","created":"2025-04-17T10:00:00Z","body":"x"}"#,
            #"{"type":"comment","id":"c","author":"u2","created":"2025-04-17T10:00:00Z","body":"\ud800x"}"#,
            #"{"type":"comment","id":"c","author":"u2","created":"2025-04-17T10:00:00Z","body":"\q"}"#,
            #"{"type":"comment","id":"c","author":"u2","created":"2025-04-17T10:00:00Z","body":"x"}  "#,
        ]
        for shape in shapes { XCTAssertEqual(verdict(pattern, Array(shape.utf8)), .undecided, shape) }
        var broken = Array(#"{"type":"comment","id":"c","author":"u2","created":"2025-04-17T10:00:00Z","body":"zo"#.utf8)
        broken += [0xC3, 0x28] + Array(#""}"#.utf8)
        XCTAssertEqual(verdict(pattern, broken), .undecided, "bytes that are not UTF-8 are repaired by the decoder")
    }

    /// A file's comment lines judged in runs from the newest down, read in one piece.
    func testAnIndexGivesVerdictsNewestFirstWithinItsBounds() throws {
        let directory = NSTemporaryDirectory() + "search-pattern-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var file = Array(#"{"type":"thread","id":"t","title":"T","author":"u1","created":"2025-04-17T10:00:00Z","body":""}"#.utf8) + [0x0A]
        let encoder = ThreadRecordEncoder()
        encoder.append(.user(users[0]), to: &file)
        for n in 0..<10 {
            encoder.append(.comment(Comment(id: "c\(n)", author: "u2", created: created, body: n % 3 == 0 ? "Zoë \(n)" : "other \(n)")), to: &file)
            if n == 4 { file += Array("\n".utf8) }
        }
        let path = directory + "/t.jsonl"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(file)))
        let index = try ThreadIndex.open(path: path)
        let pattern = SearchPattern(query: "zoe", users: [])
        let all = index.verdictsFromLines(pattern, below: 10, atMost: 100, maxBytes: 1 << 20)
        XCTAssertEqual(all.verdicts, [.yes, .no, .no, .yes, .no, .no, .yes, .no, .no, .yes])
        let three = index.verdictsFromLines(pattern, below: 7, atMost: 3, maxBytes: 1 << 20)
        XCTAssertEqual(three.verdicts, [.yes, .no, .no])
        let one = index.verdictsFromLines(pattern, below: 4, atMost: 100, maxBytes: 1)
        XCTAssertEqual(one.verdicts, [.yes], "the first line whatever its size")
        XCTAssertEqual(one.bytes, Int(index.commentLengths[3]))
        let edited = index.verdictsFromLines(pattern, below: 10, atMost: 100, maxBytes: 1 << 20, leavingUndecided: ["c9", "c7", "c"])
        XCTAssertEqual(edited.verdicts, [.undecided, .no, .undecided, .yes, .no, .no, .yes, .no, .no, .yes], "the edited ones, by their ids")
    }

    // MARK: Lines

    private func verdict(_ pattern: SearchPattern, _ line: [UInt8]) -> SearchVerdict {
        line.withUnsafeBytes { pattern.verdict(line: $0) }
    }

    private func canonical(_ comment: Comment) -> [UInt8] {
        Array(ThreadRecordEncoder().encode(.comment(comment)).dropLast())
    }

    /// A comment as this client writes it, and as others may: every character above ASCII and
    /// every `/` escaped, astral ones as surrogate pairs.
    private func writings(of comment: Comment) -> [(String, [UInt8])] {
        var escaped = ""
        for scalar in comment.body.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "/": escaped += "\\/"
            case "\n": escaped += "\\n"
            case _ where scalar.value < 0x20 || scalar.value >= 0x7F:
                for unit in String(scalar).utf16 { escaped += String(format: "\\u%04x", unit) }
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        let edited = comment.edited.map { #","edited":""# + Timestamp.format($0) + #"""# } ?? ""
        let other = #"{"type":"comment","id":"\#(comment.id)","author":"\#(comment.author)","created":"\#(Timestamp.format(comment.created))","body":"\#(escaped)"\#(edited)}"#
        return [("canonical", canonical(comment)), ("escaped", Array(other.utf8))]
    }
}
