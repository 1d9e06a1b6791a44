import XCTest
@testable import ThreadModel
final class ThreadModelPlaceholderTests: XCTestCase { func testBuilds() { XCTAssertFalse(String(describing: ThreadModelVersion.value).isEmpty) } }
