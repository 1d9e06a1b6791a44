import XCTest
import ThreadModel

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
        for cut in [#"\"#, #"\u"#, #"\ud"#, #"\ud80"#, #"a\"#] {
            XCTAssertEqual(JSONValue.replacingLoneSurrogates(in: Data(cut.utf8)), Data(cut.utf8), "an escape cut short at the end: \(cut)")
        }
    }

    func testANumberFoundationCannotRepresentReadsAsNullAndTheRestIsKept() throws {
        let value = try JSONValue(parsing: Data(#"{"huge":1e400,"events":[{"body":"kept"}]}"#.utf8))
        XCTAssertEqual(value["huge"], .null)
        XCTAssertEqual(value["events"]?.array?.first?["body"], "kept")
        XCTAssertThrowsError(try JSONValue(parsing: Data(#"{"a":"#.utf8)), "text that is not JSON is still refused")
    }

    /// Invalid UTF-8 in a string keeps the rest of the string: each bad sequence reads as U+FFFD.
    func testInvalidUTF8IsRepairedAndTheTextAroundItKept() throws {
        var text = Data(#"{"bad":"a"#.utf8)
        text.append(contentsOf: [0xFF, 0xFE])
        text.append(contentsOf: Array("b".utf8))
        // A four-byte sequence cut after three bytes: replaced by one U+FFFD, as long as it was.
        text.append(contentsOf: [0xF1, 0x80, 0x80])
        text.append(contentsOf: Array(#"c","events":[{"body":"kept é"}]}"#.utf8))
        let value = try JSONValue(parsing: text)
        XCTAssertEqual(value["bad"], "a\u{FFFD}\u{FFFD}b\u{FFFD}c")
        XCTAssertEqual(value["events"]?.array?.first?["body"], "kept é")
        let valid = Data(#"{"a":"é😀"}"#.utf8)
        XCTAssertEqual(JSONValue.replacingInvalidUTF8(in: valid), valid, "valid UTF-8: the same bytes")
    }

    /// Two keys that differ only in their lone surrogates are the same key once repaired.
    func testKeysMadeEqualByTheRepairKeepOneValueWithoutFailing() throws {
        let value = try JSONValue(parsing: Data(#"{"k\ud800":1,"k\udc00":2,"other":3}"#.utf8))
        XCTAssertEqual(value.object?.count, 2, "\(value)")
        XCTAssertEqual(value["other"], 3)
        let kept = try XCTUnwrap(value["k\u{FFFD}"]?.int)
        XCTAssertTrue([1, 2].contains(kept), "\(kept)")
    }
}
