import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A homeserver that answers an authenticated request (the sync, a send) with a redirect to
/// another origin: the request is not followed, so the access token never goes there, and the
/// reader is told what happened. (Logging in is covered by MatrixHostileServerTests.)
///
/// Synapse never redirects, so a scripted server in front of it answers 307 for the sync and
/// sends once switched; everything else is Synapse's.
final class MatrixRedirectTests: SharedSynapseTestCase {
    func testASyncAndASendRedirectedToAnotherOriginSendNoTokenThereAndSaySo() throws {
        let (bo, ann, room) = try twoUsersInARoom("Redirected", on: server)
        try bo.other.sendText(roomID: room, body: "the post")
        let elsewhere = try ScriptedHomeserver { _ in .json(#"{"next_batch":"x","event_id":"$x"}"#) }
        defer { elsewhere.stop() }
        let upstream = try server.baseURL
        let redirecting = RedirectSwitch()
        let front = try ScriptedHomeserver { request in
            if redirecting.isOn, request.path.hasSuffix("/sync") || request.path.contains("/send/") {
                // A target of its own each time (as a load balancer's might be): still said once.
                let query = request.target.drop { $0 != "?" }.dropFirst()
                return .redirect(elsewhere.baseURL.absoluteString + request.path + "?attempt=\(redirecting.next())&" + query, status: 307)
            }
            return .forwarded(request, to: upstream)
        }
        defer { front.stop() }
        var throughFront = ann
        throughFront.client = MatrixClient(homeserver: front.baseURL, accessToken: ann.account.accessToken)
        let source = try open(room, as: throughFront, usesCache: false)
        defer { source.stop() }
        // Caught up: its long poll (30 s) is waiting on Synapse; the next sync is redirected.
        let polling = Date().addingTimeInterval(15)
        while !front.requests.contains(where: { $0.path.hasSuffix("/sync") && $0.target.contains("timeout=30000") }), Date() < polling {
            Thread.sleep(forTimeInterval: 0.1)
        }
        redirecting.turnOn()
        try bo.other.sendText(roomID: room, body: "ends the long poll")
        let mine = comment(by: ann, "never sent elsewhere")
        XCTAssertEqual(source.send(mine), .pending)

        let homeserver = front.baseURL.absoluteString, other = elsewhere.baseURL.absoluteString
        // Three syncs refused (retried after 1 s and 2 s), each redirected to another target.
        let updates = try collectUpdates(from: source, timeout: 30) { updates in
            updates.contains { if case .sendFailed(mine.id, _) = $0 { true } else { false } }
                && updates.contains { if case .connection(.offline(retryIn: 4)) = $0 { true } else { false } }
        }
        let refusal = updates.compactMap { if case .sendFailed(mine.id, let reason) = $0 { reason.message } else { nil } }.first ?? ""
        XCTAssertTrue(refusal.hasPrefix("homeserver \(homeserver) redirected to \(other)/_matrix/client/v3/rooms/"), refusal)
        XCTAssertTrue(refusal.hasSuffix("(307); not followed: give that address as the homeserver"), refusal)
        let problems = updates.compactMap { if case .problem(let problem) = $0 { problem.message } else { nil } }
        XCTAssertEqual(problems.count, 1, "said once, not at every retry: \(problems)")
        XCTAssertTrue(problems.first?.hasPrefix("the room's updates stopped: homeserver \(homeserver) redirected to \(other)/_matrix/client/v3/sync") == true,
                      "\(problems)")
        XCTAssertTrue(updates.contains { if case .connection(.offline) = $0 { true } else { false } }, "\(updates.map(describe))")
        XCTAssertFalse((problems + [refusal]).contains { $0.contains(ann.account.accessToken) }, "the token is never shown")

        XCTAssertTrue(elsewhere.requests.isEmpty, "the other origin heard nothing: \(elsewhere.requests.map(\.target))")
        XCTAssertTrue(front.requests.contains { $0.headers["authorization"] == "Bearer \(ann.account.accessToken)" && $0.path.hasSuffix("/sync") },
                      "the token went where it was meant to")
        XCTAssertFalse(try bo.other.messageBodies(roomID: room).contains(mine.body))

        // Switched back, the room follows again and says nothing more.
        redirecting.turnOff()
        try bo.other.sendText(roomID: room, body: "back to normal")
        let after = try collectUpdates(from: source, timeout: 40) { $0.flatMap(\.appended).contains { $0.body == "back to normal" } }
        XCTAssertFalse(after.contains { if case .problem = $0 { true } else { false } }, "\(after.map(describe))")
    }
}

/// Whether the scripted server redirects, switched from the test's thread.
private final class RedirectSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var on = false
    private var count = 0
    var isOn: Bool { lock.withLock { on } }
    /// A new number for each redirect.
    func next() -> Int { lock.withLock { count += 1; return count } }
    func turnOn() { lock.withLock { on = true } }
    func turnOff() { lock.withLock { on = false } }
}
