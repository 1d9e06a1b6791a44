import Foundation
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// Unpadded base64, canonical JSON, JSON signatures and recovery keys, against RFC 4648 and the
/// Client-Server API's appendices.
final class EncodingTests: XCTestCase {
    func testBase64MatchesRFC4648WithoutPadding() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            XCTAssertEqual(UnpaddedBase64.encode(utf8(plain)), encoded)
            XCTAssertEqual(UnpaddedBase64.decode(encoded), utf8(plain))
        }
        XCTAssertEqual(UnpaddedBase64.decode("Zg=="), utf8("f"), "padding is read too")
        XCTAssertEqual(UnpaddedBase64.decode("Zm8="), utf8("fo"))
        for bad in ["Z", "Zm9v!", "Zm 9v", "Zg===", "=Zg", "Zg=", "Zm9vYmFy\n", "Zm-_", "Zm9vY"] {
            XCTAssertNil(UnpaddedBase64.decode(bad), "\(bad.debugDescription) is not base64")
        }
        XCTAssertEqual(UnpaddedBase64.decode("Zm9"), utf8("fo"), "bits left over are ignored, as libolm does")
        XCTAssertEqual(UnpaddedBase64.decode("Zh"), utf8("f"))
    }

    func testBase64AgreesWithFoundationOnSeededBytes() {
        var random = SeededRandom(seed: 33)
        for length in 0 ..< 200 {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
            XCTAssertEqual(UnpaddedBase64.encode(bytes), foundation)
            XCTAssertEqual(UnpaddedBase64.decode(foundation), bytes)
        }
    }

    func testCanonicalJSONMatchesTheSpecsExamples() throws {
        func canonical(_ text: String) throws -> String {
            String(decoding: try CanonicalJSON.encode(JSONValue(parsing: Data(text.utf8))), as: UTF8.self)
        }
        XCTAssertEqual(try canonical("{}"), "{}")
        XCTAssertEqual(try canonical(#"{"one": 1, "two": "Two"}"#), #"{"one":1,"two":"Two"}"#)
        XCTAssertEqual(try canonical(#"{"b": "2", "a": "1"}"#), #"{"a":"1","b":"2"}"#)
        XCTAssertEqual(try canonical(#"{"auth":{"success":true,"mxid":"@john.doe:example.com","profile":{"display_name":"John Doe","three_pids":[{"medium":"email","address":"john.doe@example.org"},{"medium":"msisdn","address":"123456789"}]}}}"#),
                       #"{"auth":{"mxid":"@john.doe:example.com","profile":{"display_name":"John Doe","three_pids":[{"address":"john.doe@example.org","medium":"email"},{"address":"123456789","medium":"msisdn"}]},"success":true}}"#)
        XCTAssertEqual(try canonical(#"{"a": "日本語"}"#), #"{"a":"日本語"}"#)
        XCTAssertEqual(try canonical(#"{"本": 2, "日": 1}"#), #"{"日":1,"本":2}"#)
        XCTAssertEqual(try canonical(#"{"a": "\u65E5"}"#), #"{"a":"日"}"#)
        XCTAssertEqual(try canonical(#"{"a": null}"#), #"{"a":null}"#)
        XCTAssertEqual(try canonical(#"{"a": -0, "b": 1E2}"#), #"{"a":0,"b":100}"#)
        XCTAssertEqual(try canonical(#"{"a": "\u0000\u001f\b\f\n\r\t\"\\/"}"#), #"{"a":"\u0000\u001f\b\f\n\r\t\"\\/"}"#)
        XCTAssertThrowsError(try canonical(#"{"a": 1.5}"#))
        XCTAssertThrowsError(try canonical(#"{"a": 9007199254740992}"#))
    }

    func testSigningMatchesTheSpecsAppendix() throws {
        // Appendices, "Signing JSON": the key with this seed, as "domain"'s "ed25519:1".
        let key = try Ed25519KeyPair(seed: XCTUnwrap(UnpaddedBase64.decode("YJDBA9Xnr2sVqXD9Vj7XVUnmFZcZrlw8Md7kMW+3XA1")))
        let empty = try JSONSigning.sign([:], userID: "domain", keyID: "1", key: key)
        XCTAssertEqual(empty["signatures"]?["domain"]?["ed25519:1"]?.string,
                       "K8280/U9SSy9IVtjBuVeLr+HpOB4BQFWbg+UZaADMtTdGYI7Geitb76LTrr5QV/7Xg4ahLwYGYZzuHGZKM5ZAQ")
        let data = try JSONSigning.sign(["one": 1, "two": "Two"], userID: "domain", keyID: "1", key: key)
        XCTAssertEqual(data["signatures"]?["domain"]?["ed25519:1"]?.string,
                       "KqmLSbO39/Bzb0QIYE82zqLwsA+PDzYIpIRA2sRQ4sL53+sN6/fpNSoqE7BP7vBZhG6kYdD13EIMJpvhJI+6Bw")
        XCTAssertTrue(JSONSigning.verify(data, userID: "domain", keyID: "1", publicKey: key.publicKey))
        var withUnsigned = data.object!
        withUnsigned["unsigned"] = ["age": 5]
        XCTAssertTrue(JSONSigning.verify(.object(withUnsigned), userID: "domain", keyID: "1", publicKey: key.publicKey),
                      "unsigned is outside the signature")
        var changed = data.object!
        changed["two"] = "Three"
        XCTAssertFalse(JSONSigning.verify(.object(changed), userID: "domain", keyID: "1", publicKey: key.publicKey))
        XCTAssertFalse(JSONSigning.verify(data, userID: "other", keyID: "1", publicKey: key.publicKey))
    }

    func testRecoveryKeysReadAsTypedAndRefuseMistakes() throws {
        let key = RecoveryKey(key: (0 ..< 32).map { UInt8($0 * 7 & 0xff) })
        let shown = key.displayed
        XCTAssertEqual(shown.split(separator: " ").count, 12, "48 characters in groups of four")
        XCTAssertTrue(shown.hasPrefix("Es"), "the 0x8B01 prefix makes every recovery key start Es: \(shown)")
        XCTAssertEqual(try RecoveryKey(typed: shown).key, key.key)
        XCTAssertEqual(try RecoveryKey(typed: "  " + shown.replacingOccurrences(of: " ", with: "\n") + "\n").key, key.key)
        var chars = Array(shown)
        chars[10] = chars[10] == "a" ? "b" : "a"
        XCTAssertThrowsError(try RecoveryKey(typed: String(chars)), "one character changed")
        XCTAssertThrowsError(try RecoveryKey(typed: String(shown.dropLast(5))), "a group missing")
        XCTAssertThrowsError(try RecoveryKey(typed: "0OIl" + shown.dropFirst(4)), "characters base58 leaves out")
        XCTAssertThrowsError(try RecoveryKey(typed: String(repeating: "z", count: 500)))
        XCTAssertEqual(Base58.encode([0, 0, 1]), "112")
        XCTAssertEqual(Base58.decode("112"), [0, 0, 1])
        XCTAssertEqual(Base58.encode(utf8("Hello World!")), "2NEpo7TZRRrLZSi2U")
    }
}
