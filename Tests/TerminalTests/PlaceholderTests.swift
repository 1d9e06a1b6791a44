import XCTest
@testable import CommentTUI
final class TerminalPlaceholderTests: XCTestCase { func testBuilds() { XCTAssertFalse(String(describing: CommentTUIVersion.value).isEmpty) } }
