import MatrixCrypto
import XCTest

/// The once-an-hour rule for new Olm sessions with a device whose messages we cannot open.
final class OlmSessionRecoveryTests: XCTestCase {
    private let hour = OlmSessionRecovery.intervalMilliseconds
    private let start: Int64 = 1_800_000_000_000

    func testOnceAnHourPerDevice() {
        var recovery = OlmSessionRecovery()
        XCTAssertTrue(recovery.startsNewSession(with: "alice", nowMilliseconds: start))
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: start), "not twice at once")
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: start + hour - 1), "not within the hour")
        XCTAssertTrue(recovery.startsNewSession(with: "bob", nowMilliseconds: start + 1), "each device has its own hour")
        XCTAssertTrue(recovery.startsNewSession(with: "alice", nowMilliseconds: start + hour), "again after the hour")
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: start + hour + 1), "and counted from then")
    }

    func testAClockThatWentBackIsNoReasonToStartAgain() {
        var recovery = OlmSessionRecovery()
        XCTAssertTrue(recovery.startsNewSession(with: "alice", nowMilliseconds: start))
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: start - 2 * hour))
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: start - hour - 1), "the hour counts from the earlier time")
        XCTAssertTrue(recovery.startsNewSession(with: "alice", nowMilliseconds: start - hour))
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: .min), "no overflow on nonsense times")
        XCTAssertFalse(recovery.startsNewSession(with: "alice", nowMilliseconds: .max - 1))
    }

    func testItKeepsOnlyTheLastHourAndSurvivesStoring() throws {
        var recovery = OlmSessionRecovery()
        for device in 0 ..< 100 { XCTAssertTrue(recovery.startsNewSession(with: "device \(device)", nowMilliseconds: start)) }
        XCTAssertTrue(recovery.startsNewSession(with: "late", nowMilliseconds: start + hour))
        XCTAssertEqual(recovery.lastAttempts, ["late": start + hour], "devices whose hour is over are forgotten")
        let stored = try JSONDecoder().decode(OlmSessionRecovery.self, from: JSONEncoder().encode(recovery))
        XCTAssertEqual(stored, recovery)
        var restored = stored
        XCTAssertFalse(restored.startsNewSession(with: "late", nowMilliseconds: start + hour + 1), "the rule holds across a restart")
    }
}
