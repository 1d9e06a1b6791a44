import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI

/// Numbers from a homeserver, or from a room member through one, are clamped before use: a
/// 429 asking for 10^13 ms trapped the client (SIGILL converting the wait's end to nanoseconds).
/// (With Synapse: MatrixServerNumberSynapseTests.)
final class MatrixServerNumberTests: XCTestCase {
    /// A 429 with `retry_after_ms` written as given and, when given, a `Retry-After` header.
    static func limited(milliseconds: String, header: String? = nil) -> ScriptedHomeserver.Answer {
        .body(status: 429, headers: [("Content-Type", "application/json")] + (header.map { [("Retry-After", $0)] } ?? []),
              pieces: [.text(#"{"errcode":"M_LIMIT_EXCEEDED","error":"Too Many Requests","retry_after_ms":\#(milliseconds)}"#)],
              framing: .contentLength, bytesPerSecond: nil)
    }

    func testTheWaitA429AsksForIsClampedWhateverItSays() throws {
        let shortest = MatrixServerNumber.shortestRetryWait
        XCTAssertEqual(MatrixServerNumber.longestRetryWait, 300, "the spec asks for the server's wait: honoured up to five minutes")
        let cases: [(milliseconds: String, header: String?, wait: Double?)] = [
            ("1500", nil, 1.5),
            ("120000", nil, 120),                        // two minutes: honoured as asked
            ("10000000000000", nil, 300),                // the wait that trapped: 10^13 ms
            ("9007199254740991", nil, 300),
            ("1e300", nil, 300),
            ("1e400", nil, nil),                         // past Double: no number, so the usual backoff
            ("-5000", nil, shortest),
            ("0", nil, shortest),
            ("\"NaN\"", nil, nil),
            ("1500", "2", 2),                            // the header, when there is one
            ("1500", "99999999999999999999999999", 300),
            ("1500", "-1", shortest),
            ("1500", "Wed, 21 Oct 2015 07:28:00 GMT", 1.5), // a date is not read: the body's wait
        ]
        for (milliseconds, header, wait) in cases {
            let server = try ScriptedHomeserver { _ in Self.limited(milliseconds: milliseconds, header: header) }
            defer { server.stop() }
            let client = MatrixClient(homeserver: server.baseURL, accessToken: "tok")
            XCTAssertThrowsError(try client.sync(since: nil, filter: [:], wait: 0)) { error in
                XCTAssertEqual((error as? MatrixError)?.retryAfter, wait, "retry_after_ms \(milliseconds), Retry-After \(header ?? "none")")
            }
        }
    }

    func testTimesOutsideTheFileFormatsRangeAreClamped() {
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(1_600_000_000_000)), Date(timeIntervalSince1970: 1_600_000_000))
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(-9e15)), MatrixServerNumber.earliestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(1e308)), MatrixServerNumber.latestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: .number(.nan)), MatrixServerNumber.earliestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: "12"), MatrixServerNumber.earliestTime)
        XCTAssertEqual(MatrixServerNumber.time(milliseconds: nil), MatrixServerNumber.earliestTime)
    }
}
