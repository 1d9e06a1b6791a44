import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A post opens whatever the server's sliding sync (asked for our receipt) answers, against the
/// real Synapse behind a front that spoils that one request: a path it does not know (then the
/// initial sync gives the receipt, and the server is not asked that way again), an error, a body
/// that is no JSON, or no answer (the opening waits a bounded time and shows no divider).
final class MatrixPostReceiptServerFailureTests: SharedSynapseTestCase {
    private var fronts: [ScriptedHomeserver] = []

    override func tearDown() {
        fronts.forEach { $0.stop() }
        fronts = []
        super.tearDown()
    }

    private static func isSlidingSync(_ request: ScriptedHomeserver.Request) -> Bool {
        request.path.hasSuffix("/org.matrix.simplified_msc3575/sync")
    }

    /// A post with two replies and Ann's threaded receipt on the first; a front that answers its
    /// sliding sync with `answer` and passes the rest to Synapse; Ann's client through it.
    private func post(slidingSync answer: ScriptedHomeserver.Answer) throws -> (client: MatrixClient, me: String, locator: String,
                                                                                 root: String, front: ScriptedHomeserver) {
        let server = try server
        let (bo, ann, room) = try twoUsersInARoom("Receipt failures", on: server)
        let root = try bo.other.sendText(roomID: room, body: "A post")
        var last = root
        for n in 1...2 {
            last = try bo.other.send(roomID: room, content: [
                "msgtype": "m.text", "body": "reply \(n)",
                "m.relates_to": ["rel_type": "m.thread", "event_id": root, "is_falling_back": true, "m.in_reply_to": ["event_id": last]],
            ])
            if n == 1 {
                _ = try ann.other.call("POST", "/_matrix/client/v3/rooms/\(room)/receipt/m.read/\(last)", body: ["thread_id": root])
            }
        }
        let upstream = server.baseURL
        let front = try ScriptedHomeserver { request in Self.isSlidingSync(request) ? answer : .forwarded(request, to: upstream) }
        fronts.append(front)
        return (MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken), ann.account.userID,
                "matrix:\(room)/\(root)", root, front)
    }

    private func open(_ post: (client: MatrixClient, me: String, locator: String, root: String, front: ScriptedHomeserver)) throws
        -> (opening: MatrixRoomOpening, seconds: Double) {
        let started = Date()
        let opening = try MatrixRoomOpening(client: post.client, address: XCTUnwrap(MatrixRoomAddress(locator: post.locator)), root: post.root,
                                            me: post.me, pageSize: MatrixThreadSource.pageSize)
        return (opening, Date().timeIntervalSince(started))
    }

    func testASlidingSyncPathUnknownFallsBackToTheInitialSyncOnceForTheServer() throws {
        let post = try post(slidingSync: .json(#"{"errcode":"M_UNRECOGNIZED","error":"Unrecognized request"}"#, status: 404))
        for _ in 0..<2 {
            let (opening, _) = try open(post)
            XCTAssertEqual(opening.comments.map(\.body), ["reply 1", "reply 2"])
            XCTAssertEqual(opening.fullyReadPosition, 0, "after reply 1, from the initial sync")
        }
        XCTAssertEqual(post.front.requests.filter(Self.isSlidingSync).count, 1, "asked once: remembered for the server")
    }

    func testAnErrorOrABodyThatIsNoJSONOpensThePostWithoutADivider() throws {
        for answer: ScriptedHomeserver.Answer in [.json(#"{"errcode":"M_UNKNOWN"}"#, status: 500), .json("{not json", status: 200)] {
            let (opening, _) = try open(try post(slidingSync: answer))
            XCTAssertEqual(opening.comments.map(\.body), ["reply 1", "reply 2"])
            XCTAssertNil(opening.fullyRead)
        }
    }

    /// No answer at all: the opening waits for it beside its other requests, 5 s at most.
    func testASlidingSyncThatNeverAnswersDelaysTheOpeningABoundedTime() throws {
        let (opening, seconds) = try open(try post(slidingSync: .hang))
        XCTAssertEqual(opening.comments.map(\.body), ["reply 1", "reply 2"])
        XCTAssertNil(opening.fullyRead)
        XCTAssertLessThan(seconds, 9.5, "the receipt's 5 s deadline, not the request's 20 s nor its former 10 s after the rest")
    }
}
