import Foundation
import XCTest
@testable import CommentTUI

/// An application service's account acts as its asserted user (`?user_id=`) on every session
/// the link opens, the posts' too: without it the service's own user would be asked about.
final class AccountLinkIdentityTests: XCTestCase {
    func testThePostsSessionKeepsTheAssertedUser() throws {
        let mailbox = try ClientMailbox()
        let account = MatrixAccounts.Account(userID: "@bot:a.org", homeserver: "http://127.0.0.1:9", accessToken: "t", deviceID: "D")
        let client = MatrixClient(homeserver: URL(string: account.homeserver)!, accessToken: "as-token", assertedUser: "@bot:a.org")
        let link = AccountLink(account: account, client: client, environment: [:], usesCache: false, mailbox: mailbox)
        XCTAssertEqual(link.postsSession.assertedUser, "@bot:a.org")
        XCTAssertEqual(link.postsSession.accessToken, "as-token")
        XCTAssertFalse(link.postsSession === client, "a session of its own, cancelled apart")
    }
}
