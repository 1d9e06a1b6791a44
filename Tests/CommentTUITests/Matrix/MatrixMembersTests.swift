import XCTest
import ThreadModel
@testable import CommentTUI

final class MatrixMembersTests: XCTestCase {
    func testHandlesComeFromLocalpartsAndAreQualifiedWhenServersShareOne() {
        var members = MatrixMembers(me: "@ann:home.org")
        members.update(["@ann:home.org": "Ann", "@marco:home.org": "Marco H", "@marco:example.org": "Marco E", "@zoë+x:b.org": nil])
        XCTAssertEqual(members.user(id: "@ann:home.org").handle, "ann")
        XCTAssertEqual(members.user(id: "@marco:home.org").handle, "marco")
        XCTAssertEqual(members.user(id: "@marco:example.org").handle, "marco.example.org")
        XCTAssertEqual(members.user(id: "@zoë+x:b.org").handle, "zo__x")
        XCTAssertEqual(members.user(id: "@zoë+x:b.org").name, "zoë+x", "no display name: the localpart")
        XCTAssertEqual(members.userID(handle: "MARCO.example.org"), "@marco:example.org")
        for user in members.users { XCTAssertTrue(Handle.isValid(user.handle), user.handle) }
    }

    func testARenameIsReportedAsAChangedUser() {
        var members = MatrixMembers(me: "@ann:home.org")
        members.update(["@ann:home.org": "Ann", "@bo:home.org": "Bo"])
        let changed = members.update(["@bo:home.org": "Bo Renamed"])
        XCTAssertEqual(changed, [User(id: "@bo:home.org", handle: "bo", name: "Bo Renamed")])
        XCTAssertEqual(members.update(["@bo:home.org": "Bo Renamed"]), [])
    }

    func testTwoServersWithoutTheReadersBothGetQualified() {
        var members = MatrixMembers(me: "@ann:home.org")
        members.update(["@kim:a.org": nil, "@kim:b.org": nil])
        XCTAssertEqual(Set(members.users.map(\.handle)), ["kim.a.org", "kim.b.org"])
    }
}
