import XCTest
@testable import CommentTUI

final class JSONValueTests: XCTestCase {
    func testBooleansNumbersAndNestingSurviveARoundTrip() throws {
        let text = #"{"a":true,"b":0,"c":1.5,"d":[null,"x",{"e":false}],"f":9007199254740991}"#
        let value = try JSONValue(parsing: Data(text.utf8))
        XCTAssertEqual(value["a"]?.bool, true)
        XCTAssertNil(value["b"]?.bool, "0 is a number, not false")
        XCTAssertEqual(value["b"]?.int, 0)
        XCTAssertNil(value["c"]?.int)
        XCTAssertEqual(value["d"]?.array?[2]["e"]?.bool, false)
        XCTAssertEqual(try JSONValue(parsing: value.serialized()), value)
        XCTAssertEqual(JSONValue(foundation: ["k": [1, "two", true]] as [String: Any]), ["k": [1, "two", true]])
    }
}
