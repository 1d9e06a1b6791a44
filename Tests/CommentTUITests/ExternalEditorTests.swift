import Foundation
import XCTest
@testable import CommentTUI
import ThreadModel

final class ExternalEditorTests: XCTestCase {
    func editor(_ command: String) -> ExternalEditor {
        ExternalEditor(environment: ["EDITOR": command, "PATH": "/usr/bin:/bin", "TMPDIR": NSTemporaryDirectory()])
    }

    func testTheEditorsSavedTextComesBack() throws {
        XCTAssertEqual(try editor("sed -i 's/old/new/'").edit("the old text"), "the new text",
                       "the file's final newline, which the draft did not have, is dropped")
    }

    func testAFailingEditorThrowsAndLeavesNoFile() throws {
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("comment-tui-draft-") }
        XCTAssertThrowsError(try editor("false").edit("text")) { error in
            XCTAssertEqual("\(error)", "the editor 'false' exited with status 1")
        }
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("comment-tui-draft-") }
        XCTAssertEqual(after, before, "the temporary file is removed")
    }

    /// An "editor" that writes `bytes` letters `a` (and, with `newline`, a line feed) into the file.
    func writing(_ bytes: Int, newline: Bool) -> ExternalEditor {
        editor(#"f() { head -c \#(bytes) /dev/zero | tr '\0' a > "$1"; \#(newline ? #"echo >> "$1";"# : "") }; f"#)
    }

    func testTextOverTheOneMiBLimitIsRefusedAndKeptWholeInItsFile() throws {
        let bytes = ThreadFileLimits.bodyBytes + 2
        XCTAssertThrowsError(try writing(bytes, newline: false).edit("short draft")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("the edited text is over the 1 MiB a comment holds; it is kept in "), message)
            let path = String(message.drop { $0 != "/" })
            XCTAssertTrue(path.contains("/comment-tui-draft-"), path)
            XCTAssertEqual((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil, bytes,
                           "what the editor wrote is kept whole")
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func testTextOfOneMiBAndTheEditorsNewlineComesBack() throws {
        let edited = try writing(ThreadFileLimits.bodyBytes, newline: true).edit("short draft")
        XCTAssertEqual(edited.utf8.count, ThreadFileLimits.bodyBytes, "at the limit, less the editor's final newline")
        XCTAssertTrue(edited.allSatisfy { $0 == "a" })
    }

    func testOneMiBAndOneByteWithoutANewlineIsRefused() throws {
        XCTAssertThrowsError(try writing(ThreadFileLimits.bodyBytes + 1, newline: false).edit("short draft")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("the edited text is over the 1 MiB a comment holds; it is kept in "), message)
            let path = String(message.drop { $0 != "/" })
            XCTAssertEqual((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil, ThreadFileLimits.bodyBytes + 1)
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func testAFIFOPutAtTheFilesPathLeavesTheDraftUnchanged() throws {
        XCTAssertThrowsError(try editor(#"f() { rm "$1" && mkfifo "$1"; }; f"#).edit("the draft")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot read back "), "\(error)")
        }
    }

    func testVisualWinsOverEditorAndViIsTheFallback() {
        XCTAssertEqual(ExternalEditor(environment: ["VISUAL": "nano", "EDITOR": "ed"]).command, "nano")
        XCTAssertEqual(ExternalEditor(environment: ["EDITOR": ""]).command, "vi")
    }
}
