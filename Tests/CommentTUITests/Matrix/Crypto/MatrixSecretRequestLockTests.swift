import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// `m.secret.request` is not encrypted: a server can send (or replay) as many as it likes. The
/// requests a sync brings are answered after the keys' lock is let go, so rooms decrypt while an
/// answer waits on a slow server; a request is answered once.
final class MatrixSecretRequestLockTests: XCTestCase {
    private let me = "@ann:test.local"

    func testRoomsDecryptWhileASecretRequestWaitsOnTheServer() throws {
        let server = try UnansweringHomeserver(answer: nil)
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("secret-lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: me, deviceID: "ANN")
        let keys = try MatrixRoomKeys(client: MatrixClient(homeserver: server.url, accessToken: "t"), userID: me, deviceID: "ANN", location: location)
        // A verified device holding the cross-signing keys, its keys up: a request for one is checked with the server.
        var random = SystemRandom()
        try keys.device.store.write { batch in
            try batch.put(CrossSigningKeys.generate(userID: me, random: &random), id: "own", in: MatrixDeviceCrypto.crossSigningKeys)
            try batch.put(true, id: "cross-signed", in: MatrixDeviceCrypto.deviceFlags)
            try batch.put(true, id: "device-keys-uploaded", in: MatrixDeviceCrypto.deviceFlags)
        }
        let request: JSONValue = ["type": "m.secret.request", "sender": .string(me),
                                  "content": ["action": "request", "name": "m.cross_signing.master", "request_id": "r1", "requesting_device_id": "OTHER"]]
        let taken = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var problems: [String] = []
        DispatchQueue.global().async {
            problems = keys.take(["to_device": ["events": [request, request]]])
            taken.signal()
        }
        let asked = Date().addingTimeInterval(10)
        while server.requests.isEmpty, Date() < asked { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(server.requests.count, 1, "the request is being checked with the server: \(server.requests)")
        let read = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = keys.keyArrivals
            read.signal()
        }
        XCTAssertEqual(read.wait(timeout: .now() + 3), .success, "the keys' lock is free while the server is asked")
        server.stop()
        XCTAssertEqual(taken.wait(timeout: .now() + 25), .success)
        // The backup key, not held, is asked of our devices after: that send fails too.
        let answers = problems.filter { !$0.hasPrefix("a secret was not asked for") }
        XCTAssertEqual(answers.count, 1, "the replayed request in the same sync taken once: \(problems)")
    }

    func testARequestIsAnsweredOnceAndTheRequestsKeptAreBounded() {
        var inbox = SecretInbox()
        let content = { (id: String) -> JSONValue in ["action": "request", "request_id": .string(id), "requesting_device_id": "OTHER"] }
        inbox.add(.request(content("r1"), sender: me))
        inbox.add(.request(content("r1"), sender: me))
        XCTAssertEqual(inbox.takeAll().count, 1, "a replay in the same sync is dropped")
        inbox.noteAnswered(content("r1"))
        inbox.add(.request(content("r1"), sender: me))
        XCTAssertTrue(inbox.waiting.isEmpty, "an answered request is not taken again")
        for index in 0 ..< 1_000 { inbox.add(.request(content("flood-\(index)"), sender: me)) }
        XCTAssertEqual(inbox.takeAll().count, SecretInbox.mostRequests, "a flood is bounded")
        for index in 0 ..< 1_000 { inbox.noteAnswered(content("answered-\(index)")) }
        XCTAssertFalse(inbox.wasAnswered(content("answered-0")), "the oldest answers forgotten")
        XCTAssertTrue(inbox.wasAnswered(content("answered-999")))
    }
}
