import XCTest
@testable import CommentTUI

final class MatrixAccountsTests: XCTestCase {
    func testTheFileIsPrivateAndChoosingNeedsAsWhenSeveralAreLoggedIn() throws {
        let folder = NSTemporaryDirectory() + "accounts-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = MatrixAccounts.path(environment: ["XDG_CONFIG_HOME": folder])!
        var accounts = try MatrixAccounts(path: path)
        XCTAssertThrowsError(try accounts.choose(nil))
        accounts.add(.init(userID: "@a:x.org", homeserver: "http://127.0.0.1:1", accessToken: "secret-a", deviceID: "D1"))
        try accounts.save()
        XCTAssertEqual(try accounts.choose(nil).userID, "@a:x.org")
        accounts.add(.init(userID: "@b:y.org", homeserver: "http://127.0.0.1:2", accessToken: "secret-b", deviceID: "D2"))
        try accounts.save()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let reread = try MatrixAccounts(path: path)
        XCTAssertEqual(reread.accounts.map(\.userID), ["@a:x.org", "@b:y.org"])
        XCTAssertThrowsError(try reread.choose(nil)) { error in
            let message = (error as? CommandFailure)?.message ?? ""
            XCTAssertTrue(message.contains("--as") && !message.contains("secret"), message)
        }
        XCTAssertEqual(try reread.choose("@b:y.org").accessToken, "secret-b")
    }
}
