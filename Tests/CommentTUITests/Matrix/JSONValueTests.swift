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

    func testLoneSurrogateEscapesAreRepairedAndPairsAndEscapedBackslashesKept() throws {
        let text = #"{"high":"a\ud800b","low":"a\uDC00b","pair":"\ud83d\ude00","reversed":"\udc00\ud800","end":"\ud800","#
            + #""text":"\\ud800","k\ud800":1,"high then letter":"\ud800\u0041"}"#
        let value = try JSONValue(parsing: Data(text.utf8))
        XCTAssertEqual(value["high"], "a\u{FFFD}b")
        XCTAssertEqual(value["low"], "a\u{FFFD}b")
        XCTAssertEqual(value["pair"], "😀")
        XCTAssertEqual(value["reversed"], "\u{FFFD}\u{FFFD}")
        XCTAssertEqual(value["end"], "\u{FFFD}")
        XCTAssertEqual(value["text"], #"\ud800"#, "an escaped backslash before u is text, not an escape")
        XCTAssertEqual(value["k\u{FFFD}"], 1)
        XCTAssertEqual(value["high then letter"], "\u{FFFD}A")
        let plain = Data(#"{"a":"\u00e9\n"}"#.utf8)
        XCTAssertEqual(JSONValue.replacingLoneSurrogates(in: plain), plain, "nothing to repair: the same bytes")
    }

    func testAValueFoundationCannotRepresentReadsAsNullAndTheRestIsKept() throws {
        var text = Data(#"{"huge":1e400,"bad":"a"#.utf8)
        text.append(contentsOf: [0xFF, 0xFE])
        text.append(contentsOf: Array(#"","events":[{"body":"kept"}]}"#.utf8))
        let value = try JSONValue(parsing: text)
        XCTAssertEqual(value["huge"], .null)
        XCTAssertEqual(value["bad"], .null)
        XCTAssertEqual(value["events"]?.array?.first?["body"], "kept")
        XCTAssertThrowsError(try JSONValue(parsing: Data(#"{"a":"#.utf8)), "text that is not JSON is still refused")
    }
}
