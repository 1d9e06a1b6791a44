import XCTest
@testable import ScrollEngine
final class ScrollEnginePlaceholderTests: XCTestCase { func testBuilds() { XCTAssertFalse(String(describing: ScrollEngineVersion.value).isEmpty) } }
