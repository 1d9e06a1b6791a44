import XCTest
@testable import CommentTUI
final class CommentTUIPlaceholderTests: XCTestCase { func testBuilds() { XCTAssertFalse(String(describing: CommentTUIVersion.value).isEmpty) } }
