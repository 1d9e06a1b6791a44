import Foundation
import XCTest
@testable import CommentTUI
@testable import ThreadModel

/// The verbs print what a thread holds (names, titles, bodies, ids) without a bidi control or
/// any other control or invisible format character raw (issue 36): `export` and
/// `import-github` write them as JSON `\u` escapes, which read back as the same text; messages
/// show them as `\u{…}`; `render` shows the client's placeholders.
final class HostileNamesVerbTests: XCTestCase {
    /// Bidi overrides, embeddings, isolates and marks, the Arabic letter mark, an escape
    /// sequence (C0), DEL, C1, a line separator, a zero-width space, a byte order mark, and a
    /// tag spelling "hi" outside a flag, after a letter and after an emoji that is no flag.
    private let hostile = "\u{202E}evil\u{202C} \u{202A}\u{202B}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{061C}"
        + "\u{1B}[31m\u{7F}\u{85}\u{9B}31m\u{2028}\u{200B}\u{FEFF}x\u{E0068}\u{E0069}😀\u{E0068}\u{E0069}"
    /// What must stay readable: an emoji family (joiners inside a cluster), a flag of England
    /// (tags inside a cluster), Arabic, and Devanagari with a joiner inside a word.
    private let readable = "👨‍👩‍👧 🏴󠁧󠁢󠁥󠁮󠁧󠁿 مرحبا क्‍ष"

    /// The scalars a terminal would obey or hide: controls but `\n`, what the client shows as a
    /// placeholder, and tag characters anywhere but in a tag flag (U+1F3F4 and tags).
    private static func unsafeScalars(_ text: String) -> [String] {
        var joinable = false
        var inTagFlag = false
        var found: [String] = []
        for scalar in text.unicodeScalars {
            let isTag = (0xE0020...0xE007F).contains(scalar.value)
            let unsafe = isTag ? !inTagFlag
                : scalar.value < 0x20 && scalar != "\n" || VisibleControls.placeholder(for: scalar, hasBase: joinable) != nil
            if unsafe { found.append("U+" + String(scalar.value, radix: 16, uppercase: true)) }
            inTagFlag = scalar.value == 0x1F3F4 || inTagFlag && isTag && scalar.value != 0xE007F
            joinable = VisibleControls.joinState(joinable, after: unsafe ? "\u{FFFD}" : scalar)
        }
        return found
    }

    private func hostileThread() throws -> (path: String, thread: CommentThread) {
        let path = try temporaryDirectory(self).appendingPathComponent("t.jsonl").path
        let start = Date(timeIntervalSince1970: 1_744_884_000)
        let records: [ThreadRecord] = [
            .thread(ThreadHeader(id: "t\(hostile)", title: "Title \(hostile) \(readable)", author: "u1\(hostile)", created: start,
                                 body: "Post \(hostile)")),
            .user(User(id: "u1\(hostile)", handle: "ann", name: "Ann \(hostile) \(readable)")),
            .comment(Comment(id: "c1\(hostile)", author: "u1\(hostile)", created: start, body: "Body \(hostile) \(readable)")),
            // By nobody the file knows: `render` and `check` name the author in a message.
            .comment(Comment(id: "c2", author: "u9\(hostile)", created: start, body: "orphan")),
        ]
        try ThreadFileWriter(path: path).create(records)
        return (path, try ThreadFile.read(path: path).thread)
    }

    func testExportWritesNoControlOrInvisibleCharacterRawAndReadsBackTheSame() throws {
        let (path, thread) = try hostileThread()
        XCTAssertFalse(Self.unsafeScalars(try String(contentsOfFile: path, encoding: .utf8)).isEmpty, "the file itself holds them")
        let run = VerbRun(.export, [path])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(Self.unsafeScalars(run.text), [], run.text)
        XCTAssertTrue(run.text.contains(#"\u202e"#), "escaped, not dropped")
        XCTAssertTrue(run.text.contains(#"\udb40\udc68"#), "a tag outside a cluster as its UTF-16 pair")
        XCTAssertTrue(run.text.contains(readable), "joiners and tags inside clusters stay as they are")
        let back = ThreadFileReader().read(run.output)
        XCTAssertEqual(back.problems.count, 1, "the comment by nobody it knows, as in the file")
        // JSON's escapes lose nothing.
        XCTAssertEqual([back.thread.id, back.thread.title, back.thread.author, back.thread.body],
                       [thread.id, thread.title, thread.author, thread.body])
        XCTAssertEqual(back.thread.users, thread.users)
        XCTAssertEqual(back.thread.comments, thread.comments)
    }

    func testImportGitHubWritesNoControlOrInvisibleCharacterRaw() throws {
        let directory = try temporaryDirectory(self)
        func json(_ text: String) -> String {
            var out: [UInt8] = []
            ThreadRecordEncoder.appendString(text, to: &out)
            return String(decoding: out, as: UTF8.self)
        }
        let issue = #"{"number":1,"title":\#(json("Issue \(hostile)")),"body":\#(json("Post \(hostile)")),"user":{"login":"ann"},"created_at":"2020-01-01T00:00:00Z"}"#
        let comments = #"[{"id":1,"body":\#(json("Body \(hostile) \(readable)")),"user":{"login":"bo"},"created_at":"2020-01-01T00:00:00Z","updated_at":"2020-01-01T00:00:00Z"}]"#
        let issuePath = directory.appendingPathComponent("issue.json").path
        let commentsPath = directory.appendingPathComponent("comments.json").path
        try Data(issue.utf8).write(to: URL(fileURLWithPath: issuePath))
        try Data(comments.utf8).write(to: URL(fileURLWithPath: commentsPath))
        let run = VerbRun(.importGitHub, [issuePath, commentsPath])
        XCTAssertEqual(run.status, 0, run.error)
        XCTAssertEqual(Self.unsafeScalars(run.text), [], run.text)
        let back = ThreadFileReader().read(run.output)
        XCTAssertEqual(back.thread.title, "Issue \(hostile)")
        XCTAssertEqual(back.thread.comments.first?.body, "Body \(hostile) \(readable)")
    }

    func testMessagesAndRenderShowNoControlOrInvisibleCharacterRaw() throws {
        let (path, _) = try hostileThread()
        let post = VerbRun(.post, [path, "--as", "bo", "--body", "hi"])
        XCTAssertEqual(post.status, 1)
        XCTAssertTrue(post.error.contains("no user 'bo'"), post.error)
        let check = VerbRun(.check, [path + "\u{202E}\u{200B}"])
        XCTAssertEqual(Self.unsafeScalars(check.error), [], check.error)
        XCTAssertTrue(check.error.contains(#"\u{202E}\u{200B}"#), check.error)
        let render = VerbRun(.render, [path, "--plain", "--width", "80"])
        XCTAssertEqual(render.status, 1, "the comment by an unknown author is named")
        XCTAssertTrue(render.error.contains(#"unknown user "u9\u{202E}evil"#), render.error)
        XCTAssertEqual(Self.unsafeScalars(render.text), [], render.text)
        XCTAssertEqual(Self.unsafeScalars(render.error), [], render.error)
    }

    func testInspectEscapesAMentionedUsersIdFromTheThreadFileInItsFormat() throws {
        let (path, thread) = try hostileThread()
        let id = try XCTUnwrap(thread.user(handle: "ann")?.id)
        let html = VerbRun(.inspect, ["--thread", path, "hi @ann"])
        XCTAssertEqual(html.status, 0, html.error)
        XCTAssertEqual(Self.unsafeScalars(html.text), [], html.text)
        XCTAssertTrue(html.text.contains(#"data-user="u1&#x202E;evil&#x202C; "#), html.text)
        // HTML reads `&#x1B;` as ESC again, but `&#x85;` as "…" (Windows-1252): C1 is U+FFFD.
        XCTAssertTrue(html.text.contains("&#x1B;[31m&#x7F;&#xFFFD;&#xFFFD;31m"), html.text)
        let json = VerbRun(.inspect, ["--format", "json", "--thread", path, "hi @ann"])
        XCTAssertEqual(json.status, 0, json.error)
        XCTAssertEqual(Self.unsafeScalars(json.text), [], json.text)
        let runs = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.output)) as? [[String: Any]])
        XCTAssertEqual(runs.compactMap { ($0["attributes"] as? [String: Any])?["mention"] as? String }, [id], "the same id, decoded")
    }

    func testEscapedMessageTextKeepsWhatReadsAndEscapesWhatHides() {
        XCTAssertEqual(VisibleText.escape("a\u{200B}b\u{FEFF}c\u{E0068}"), #"a\u{200B}b\u{FEFF}c\u{E0068}"#)
        XCTAssertEqual(VisibleText.escape("\u{202E}x\u{2066}"), #"\u{202E}x\u{2066}"#)
        XCTAssertEqual(VisibleText.escape(readable), readable)
        XCTAssertEqual(VisibleText.escape("😀\u{E0068}\u{E0069}"), #"😀\u{E0068}\u{E0069}"#, "tags after an emoji that is no flag")
    }

    func testInspectHTMLWritesControlsAsReferencesThatReadBackAsTheyAre() {
        XCTAssertEqual(VisibleText.escapingInvisibles(in: "a\u{0}\u{1B}\r\u{7F}\u{85}\u{9F}\u{A0}\n\tb", as: .html),
                       "a&#xFFFD;&#x1B;&#xD;&#x7F;&#xFFFD;&#xFFFD;\u{A0}\n\tb")
        // JSON escapes C0 itself (the encoder's `\u001b`); only what it leaves is escaped here.
        XCTAssertEqual(VisibleText.escapingInvisibles(in: "\u{7F}\u{85}\u{202E}", as: .json), #"\u007f\u0085\u202e"#)
    }
}
