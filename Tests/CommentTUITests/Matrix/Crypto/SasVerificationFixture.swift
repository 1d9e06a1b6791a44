import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// One device of ours in a verification test: its keys (uploaded) and its own sync, taken
/// step by step.
final class VerifyingDevice {
    let keys: MatrixRoomKeys
    let client: MatrixClient
    /// The room whose timeline it reads too, as an open room does (through `MatrixRoomDecryption`).
    var room: String?
    private var since: String?
    /// The room's events whose key had not come, tried again each sync.
    private var waiting: [JSONValue] = []

    init(keys: MatrixRoomKeys, client: MatrixClient) {
        self.keys = keys
        self.client = client
    }

    /// One sync (only `room`'s timeline, to-device and device lists) taken by the keys, then the
    /// room's events opened and the verification messages among them taken.
    func sync() throws {
        let rooms: [JSONValue] = room.map { [.string($0)] } ?? []
        let answer = try client.sync(since: since, filter: ["room": ["rooms": .array(rooms)], "presence": ["types": []]], wait: 0)
        since = answer["next_batch"]?.string
        keys.take(answer)
        guard let room else { return }
        let decryption = MatrixRoomDecryption(roomID: room, keys: keys)
        let events = waiting + (answer["rooms"]?["join"]?[room]?["timeline"]?["events"]?.array ?? [])
        waiting = events.filter { decryption.open($0).unreadable?.waitsForKey == true }
        keys.verifications.waitForRoomEvents()
    }

    var verifications: [MatrixVerification] { keys.verifications.all }
}

extension SharedSynapseTestCase {
    /// A device of ours for `account` (logged in with `token`/`deviceID`), keys in a folder of its own, uploaded;
    /// reading `room` from its first sync on when given.
    func verifyingDevice(userID: String, deviceID: String, token: String, room: String? = nil) throws -> VerifyingDevice {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sas-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let client = MatrixClient(homeserver: try server.baseURL, accessToken: token)
        let location = try XCTUnwrap(CryptoStoreLocation(userID: userID, deviceID: deviceID, environment: ["XDG_DATA_HOME": folder.path + "/data", "XDG_CONFIG_HOME": folder.path + "/config"]))
        let keys = try MatrixRoomKeys(client: client, userID: userID, deviceID: deviceID, location: location)
        let device = VerifyingDevice(keys: keys, client: client)
        device.room = room
        try device.sync()
        return device
    }

    /// A second login of `account`: its token and device id.
    func secondLogin(_ account: MatrixTestAccount) throws -> (token: String, deviceID: String) {
        let anonymous = MatrixTestClient(baseURL: try server.baseURL, accessToken: nil, userID: nil)
        let answer = try anonymous.request(method: "POST", path: "/_matrix/client/v3/login", body: [
            "type": "m.login.password", "identifier": ["type": "m.id.user", "user": account.userID], "password": account.password,
        ])
        return (try XCTUnwrap(answer.json["access_token"] as? String), try XCTUnwrap(answer.json["device_id"] as? String))
    }

    /// Syncs `devices` in turn, letting `act` answer, until `finished` holds (at most `seconds`).
    func drive(_ devices: [VerifyingDevice], seconds: Double = 30, act: () -> Void = {}, until finished: () -> Bool) throws {
        let end = Date().addingTimeInterval(seconds)
        while !finished() {
            guard Date() < end else { return XCTFail("the verification did not finish in \(seconds) s: \(devices.map(\.verifications))") }
            for device in devices { try device.sync() }
            act()
            if !finished() { Thread.sleep(forTimeInterval: 0.1) }
        }
    }
}
