import XCTest
@testable import MatrixCrypto

final class KeyReplenishmentTests: XCTestCase {
    func testKeysAreToppedUpToHalfTheAccountAndFallbackKeysReplaced() {
        XCTAssertEqual(KeyReplenishment(serverCount: 0, unusedFallbackTypes: []).oneTimeKeys, 50)
        XCTAssertEqual(KeyReplenishment(serverCount: 48, unusedFallbackTypes: ["signed_curve25519"]).oneTimeKeys, 2)
        XCTAssertEqual(KeyReplenishment(serverCount: 50, unusedFallbackTypes: nil).oneTimeKeys, 0)
        XCTAssertEqual(KeyReplenishment(serverCount: 400, unusedFallbackTypes: nil).oneTimeKeys, 0, "a server holding more needs none")
        XCTAssertEqual(KeyReplenishment(serverCount: -3, unusedFallbackTypes: nil).oneTimeKeys, 50, "a hostile negative count")
        XCTAssertEqual(KeyReplenishment(serverCount: nil, unusedFallbackTypes: nil), KeyReplenishment(serverCount: 50, unusedFallbackTypes: nil),
                       "a count sync did not send is not zero")
        XCTAssertTrue(KeyReplenishment(serverCount: 50, unusedFallbackTypes: []).fallbackKey, "the fallback key was used")
        XCTAssertFalse(KeyReplenishment(serverCount: 50, unusedFallbackTypes: ["signed_curve25519"]).fallbackKey)
    }
}
