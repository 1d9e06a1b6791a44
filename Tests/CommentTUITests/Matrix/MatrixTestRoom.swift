import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
import ThreadModel
@testable import CommentTUI

/// Test classes sharing one Synapse for the whole run (`SharedSynapse`): started before the
/// first class's first test, stopped by its pid when the bundle finishes; users are registered
/// per test with unique names.
class SharedSynapseTestCase: XCTestCase {
    override class func setUp() {
        super.setUp()
        do { _ = try SharedSynapse.start() } catch { XCTFail("Synapse did not start: \(error)") }
    }

    /// The class's server (started again if a test stopped it).
    var server: SynapseServer { get throws { try SharedSynapse.start() } }
}

/// A registered user, with a client of ours signed in through the real login.
struct MatrixTestUser {
    var account: MatrixTestAccount
    var other: MatrixTestClient
    var client: MatrixClient
    var localpart: String
}

extension XCTestCase {
    /// Registers a user with a unique localpart built from `name`.
    func registerUser(_ name: String, displayName: String? = nil, on server: SynapseServer) throws -> MatrixTestUser {
        let localpart = "\(name)-\(UUID().uuidString.prefix(6).lowercased())"
        let account = try server.register(localpart: localpart, password: "pw-\(localpart)", displayName: displayName)
        let client = MatrixClient(homeserver: server.baseURL, accessToken: account.accessToken)
        return MatrixTestUser(account: account, other: server.client(for: account), client: client, localpart: localpart)
    }

    /// Bo creates a public room named `name` and Ann joins it.
    func twoUsersInARoom(_ name: String, on server: SynapseServer) throws -> (bo: MatrixTestUser, ann: MatrixTestUser, room: String) {
        let bo = try registerUser("bo", displayName: "Bo", on: server)
        let ann = try registerUser("ann", on: server)
        let room = try bo.other.createRoom(name: name, preset: .publicChat)
        _ = try ann.other.join(room)
        return (bo, ann, room)
    }

    /// Opens `room` as `user` through our source; `follows` starts its sync loop.
    func open(_ room: String, as user: MatrixTestUser, follows: Bool = true, environment: [String: String] = [:],
              usesCache: Bool = true) throws -> MatrixThreadSource {
        try MatrixThreadSource(client: user.client, address: XCTUnwrap(MatrixRoomAddress(locator: "matrix:\(room)")),
                               me: user.account.userID, environment: environment, follows: follows, usesCache: usesCache)
    }

    /// Waits (bounded) for the source's updates until `done` says the collected list is enough.
    @discardableResult
    func collectUpdates(from source: ThreadSource, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line,
                        until done: ([ThreadUpdate]) -> Bool) throws -> [ThreadUpdate] {
        var collected: [ThreadUpdate] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !done(collected) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                XCTFail("updates did not arrive in \(timeout) s; got: \(collected.map(describe))", file: file, line: line)
                return collected
            }
            if let ready = source.updatesReady { _ = try Poll.readable([ready], timeout: min(left, 0.5)) }
            collected += source.takeUpdates()
        }
        return collected
    }

    /// A comment of the reader's, as the app makes one.
    func comment(by user: MatrixTestUser, _ body: String) -> Comment {
        Comment(id: ThreadFileWriter.newCommentID(), author: user.account.userID, created: Date(), body: body)
    }
}

extension ThreadUpdate {
    /// The comments an update appends, if it does.
    var appended: [Comment] { if case .commentsAppended(let list) = self { list } else { [] } }
}

extension XCTestCase {
    /// An environment whose data and cache directories are fresh temporary folders (drafts,
    /// outboxes, offline copies).
    func temporaryDataEnvironment() -> [String: String] {
        let folder = NSTemporaryDirectory() + "data-\(UUID().uuidString)"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: folder) }
        return ["XDG_DATA_HOME": folder + "/data", "XDG_CACHE_HOME": folder + "/cache"]
    }

    /// The outbox our source keeps for `user` in `room`.
    func outbox(of user: MatrixTestUser, in room: String, environment: [String: String]) throws -> CommentOutbox {
        let files = try XCTUnwrap(MatrixThreadSource.stateFiles(me: user.account.userID, roomID: room, environment: environment))
        return CommentOutbox(files: files)
    }
}
