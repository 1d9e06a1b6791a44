import XCTest
@testable import CommentTUI

final class MatrixRoomAddressTests: XCTestCase {
    func testEveryLocatorFormNamesTheRoom() {
        let cases: [(String, String?)] = [
            ("matrix:!abc:example.org", "!abc:example.org"),
            ("matrix:#release:example.org", "#release:example.org"),
            ("matrix:r/release:example.org", "#release:example.org"),
            ("matrix:roomid/abc:example.org?via=example.org", "!abc:example.org"),
            ("https://matrix.to/#/#release:example.org", "#release:example.org"),
            ("https://matrix.to/#/%23release%3Aexample.org", "#release:example.org"),
            ("https://matrix.to/#/!abc:example.org/$event?via=a.org", "!abc:example.org"),
            ("team.jsonl", nil),
            ("matrix:release", nil),
            ("matrix:!opaqueV12RoomID", "!opaqueV12RoomID"),
            ("matrix:#aliasWithoutServer", nil),
            ("matrix:#:example.org", nil),
            ("matrix:#room\u{1B}[2J:example.org", nil),
        ]
        for (locator, expected) in cases {
            XCTAssertEqual(MatrixRoomAddress(locator: locator)?.identifier, expected, locator)
        }
        XCTAssertTrue(MatrixRoomAddress(locator: "matrix:#a:b.org")!.isAlias)
        XCTAssertEqual(MatrixRoomAddress(locator: "matrix:#a:b.org:8448")!.server, "b.org:8448")
    }

    func testALinksViaServersAreKeptInOrder() {
        XCTAssertEqual(MatrixRoomAddress(locator: "https://matrix.to/#/!abc:a.org/$event?via=b.org&via=c.org%3A8448&via=b.org")?.via,
                       ["b.org", "c.org:8448"])
        XCTAssertEqual(MatrixRoomAddress(locator: "matrix:roomid/abc:a.org?action=join&via=b.org")?.via, ["b.org"])
        XCTAssertEqual(MatrixRoomAddress(locator: "matrix:!abc:a.org")?.via, [])
        XCTAssertEqual(MatrixRoomAddress(locator: "matrix:!abc:a.org?via=evil%0D%0Ax&via=%1B[2J&via=")?.via, [], "no controls, nothing empty")
    }

    func testALinksViaServersAreCappedAtFive() {
        let servers = (1...8).map { "s\($0).org" }
        XCTAssertEqual(MatrixRoomAddress(locator: "matrix:!abc:a.org?" + servers.map { "via=" + $0 }.joined(separator: "&"))?.via,
                       Array(servers.prefix(5)))
    }

    func testAnAliasIsOnTheUsersServerByNameAndPort() {
        func on(_ alias: String, _ user: String) -> Bool { MatrixRoomAddress(locator: "matrix:" + alias)!.isOnServer(ofUser: user) }
        XCTAssertTrue(on("#x:[::1]:8448", "@ann:[::1]:8448"))
        XCTAssertFalse(on("#x:[::1]:8448", "@ann:[::1]:8449"), "another port is another server")
        XCTAssertFalse(on("#x:[::1]", "@ann:[::1]:8448"))
        XCTAssertTrue(on("#x:Example.ORG", "@ann:example.org"), "host names ignore letter case")
        XCTAssertFalse(on("#x:example.org:8448", "@ann:example.org"))
        XCTAssertFalse(on("#x:other.org", "@ann:example.org"))
        XCTAssertFalse(on("#x:example.org", "@ann:example.org.evil"))
    }

    func testAMalformedRoomIsAnErrorNotAFileName() throws {
        XCTAssertThrowsError(try RoomOpener.address("matrix:nothing")) { error in
            XCTAssertTrue((error as? CommandFailure)?.message.contains("is not a room") == true)
        }
        XCTAssertNil(try RoomOpener.address("notes/matrix.jsonl"))
    }
}

/// A post's locator: the room and the root event of the post, in each form a post is named by.
final class MatrixPostLocatorTests: XCTestCase {
    func testOnlyALinkOrURINamesItsEventAsAPermalink() {
        XCTAssertFalse(MatrixRoomAddress(locator: "matrix:!abc:example.org/$ev")!.eventIsPermalink, "names a post")
        XCTAssertTrue(MatrixRoomAddress(locator: "https://matrix.to/#/!abc:example.org/$ev?via=example.org")!.eventIsPermalink)
        XCTAssertTrue(MatrixRoomAddress(locator: "matrix:roomid/abc:example.org/e/ev")!.eventIsPermalink)
        XCTAssertFalse(MatrixRoomAddress(locator: "https://matrix.to/#/!abc:example.org")!.eventIsPermalink, "no event")
    }

    func testEveryPostLocatorFormNamesTheRoomAndTheRoot() {
        let cases: [(String, String, String?)] = [
            ("matrix:!abc:example.org/$ev", "!abc:example.org", "$ev"),
            ("matrix:#release:example.org/$ev:example.org", "#release:example.org", "$ev:example.org"),
            ("matrix:roomid/abc:example.org/e/ev?via=example.org", "!abc:example.org", "$ev"),
            ("matrix:r/release:example.org/e/ev", "#release:example.org", "$ev"),
            ("https://matrix.to/#/!abc:example.org/$ev?via=a.org", "!abc:example.org", "$ev"),
            ("https://matrix.to/#/%21abc%3Aexample.org/%24ev%2Bx%2Fy", "!abc:example.org", "$ev+x/y"),
            ("matrix:!abc:example.org/$ev/with/slashes", "!abc:example.org", "$ev/with/slashes"),
            ("matrix:!abc:example.org/", "!abc:example.org", nil),
            ("matrix:!abc:example.org", "!abc:example.org", nil),
        ]
        for (locator, room, root) in cases {
            let address = MatrixRoomAddress(locator: locator)
            XCTAssertEqual(address?.identifier, room, locator)
            XCTAssertEqual(address?.postRoot, root, locator)
        }
        XCTAssertEqual(MatrixRoomAddress(locator: "https://matrix.to/#/!abc:a.org/$ev?via=b.org")?.via, ["b.org"])
        XCTAssertEqual(MatrixRoomAddress(locator: "matrix:!abc:a.org/$ev")?.locator, "matrix:!abc:a.org/$ev")
    }

    func testAMalformedEventIsAClearErrorWithNoControls() {
        let hostile = [
            "matrix:!abc:example.org/notanevent",
            "matrix:!abc:example.org/$",
            "matrix:!abc:example.org/$ev%1B[2J",
            "matrix:!abc:example.org/$ev%0Ax",
            "matrix:!abc:example.org/$ev with space",
            "matrix:!abc:example.org/$" + String(repeating: "a", count: 300),
            "matrix:roomid/abc:example.org/u/ann:example.org",
            "https://matrix.to/#/!abc:example.org/%E2%80%AEev",
        ]
        for locator in hostile {
            XCTAssertNil(MatrixRoomAddress(locator: locator), locator)
            XCTAssertThrowsError(try RoomOpener.address(locator), locator) { error in
                let message = (error as? CommandFailure)?.message ?? ""
                XCTAssertTrue(message.contains("is not a post"), message)
                XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
                    || $0.value == 0x202E }, "no controls: \(message.debugDescription)")
            }
        }
    }
}
