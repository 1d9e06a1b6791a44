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

    func testAMalformedRoomIsAnErrorNotAFileName() throws {
        XCTAssertThrowsError(try RoomOpener.address("matrix:nothing")) { error in
            XCTAssertTrue((error as? CommandFailure)?.message.contains("is not a room") == true)
        }
        XCTAssertNil(try RoomOpener.address("notes/matrix.jsonl"))
    }
}
