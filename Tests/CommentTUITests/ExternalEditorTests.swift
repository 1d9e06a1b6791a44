import Foundation
import XCTest
@testable import CommentTUI

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

    func testVisualWinsOverEditorAndViIsTheFallback() {
        XCTAssertEqual(ExternalEditor(environment: ["VISUAL": "nano", "EDITOR": "ed"]).command, "nano")
        XCTAssertEqual(ExternalEditor(environment: ["EDITOR": ""]).command, "vi")
    }
}
