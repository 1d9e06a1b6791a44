import XCTest
@testable import CommentTUI

/// `import` fills a room's own timeline: a post's locator (which it would ignore, posting beside
/// the post) is refused before anything is read or sent.
final class ImportPostRefusalTests: XCTestCase {
    func testImportRefusesAPostLocatorClearly() throws {
        let file = try temporaryDirectory(self).appendingPathComponent("thread.jsonl").path
        for locator in ["matrix:!abc:example.org/$ev", "https://matrix.to/#/!abc:example.org/$ev?via=example.org"] {
            let run = VerbRun(.importThread, [file, locator])
            XCTAssertEqual(run.status, 2, run.error)
            XCTAssertTrue(run.error.contains("names a post") && run.error.contains("matrix:!abc:example.org)"), run.error)
            XCTAssertTrue(run.output.isEmpty)
        }
    }
}
