import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// What others cannot do to our verifications, against the real server: a third member of the
/// room cannot end ours; requests do not pile up (one per asking device, a few at once) nor cost
/// more than one key lookup per user in a sync; a request whose keys cannot be read is shown
/// refused, not dropped unseen; an unknown transaction is said so; a device of theirs newer than
/// our room request is verified by its own key.
final class MatrixVerificationLimitsTests: SharedSynapseTestCase {
    /// Counts the users each `/keys/query` of `device`'s verifications asked about.
    private final class QueryCount: @unchecked Sendable {
        private let lock = NSLock()
        private var users: [String] = []
        func add(_ asked: [String]) { lock.withLock { users += asked } }
        func count(of user: String) -> Int { lock.withLock { users.filter { $0 == user }.count } }
    }

    private func countQueries(of device: VerifyingDevice) -> QueryCount {
        let count = QueryCount()
        device.keys.verifications.queryKeys = { client, users in
            count.add(users)
            return try client.queryKeys(users: users)
        }
        return count
    }

    private func device(of user: MatrixTestUser) throws -> VerifyingDevice {
        try verifyingDevice(userID: user.account.userID, deviceID: user.account.deviceID, token: user.account.accessToken)
    }

    func testAThirdMemberOfTheRoomCannotCancelOurVerification() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server), bo = try registerUser("bo", on: server), cy = try registerUser("cy", on: server)
        let room = try ann.other.createRoom(invite: [bo.account.userID, cy.account.userID], initialState: [])
        _ = try bo.other.join(room)
        _ = try cy.other.join(room)
        let annDevice = try device(of: ann)
        _ = try device(of: bo)
        annDevice.room = room
        let id = try annDevice.keys.verifications.request(userID: bo.account.userID, inRoom: room)

        // Cy relates a cancel (and a ready) to Ann's request.
        let relation: [String: Any] = ["rel_type": "m.reference", "event_id": id]
        try cy.other.send(roomID: room, content: ["m.relates_to": relation, "code": "m.user", "reason": "cy says no"],
                          type: "m.key.verification.cancel")
        try cy.other.send(roomID: room, content: ["m.relates_to": relation, "from_device": "CY", "methods": ["m.sas.v1"]],
                          type: "m.key.verification.ready")
        try annDevice.sync()
        let verification = try XCTUnwrap(annDevice.keys.verifications.verification(id))
        XCTAssertEqual(verification.stage, .waitingForThem, verification.words)
        XCTAssertNil(verification.deviceID)
        let cancels = try ann.other.messages(roomID: room, limit: 20).filter { $0["type"] as? String == "m.key.verification.cancel" }
        XCTAssertEqual(cancels.map { $0["sender"] as? String }, [cy.account.userID], "Ann answered Cy with nothing")
    }

    func testADeviceAskingAgainEndsItsEarlierRequestsAndOneSyncCostsOneLookupOfThem() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server), bo = try registerUser("bo", on: server)
        let annDevice = try device(of: ann), boDevice = try device(of: bo)
        let queries = countQueries(of: annDevice)
        let ids = try (0..<3).map { _ in try boDevice.keys.verifications.request(userID: ann.account.userID, deviceID: ann.account.deviceID) }

        try annDevice.sync()
        let offered = annDevice.verifications
        XCTAssertEqual(offered.map(\.id), ids)
        XCTAssertEqual(offered.map(\.stage), [.cancelled, .cancelled, .incoming])
        XCTAssertEqual(queries.count(of: bo.account.userID), 1, "three requests in one sync: one lookup of Bo")
        try boDevice.sync()
        XCTAssertEqual(boDevice.verifications.map(\.cancelCode), [.user, .user, nil])
    }

    func testNoMoreThanTheLimitWaitAndTheRestAreRefusedUnseen() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server), bo = try registerUser("bo", on: server)
        let annDevice = try device(of: ann)
        annDevice.keys.verifications.pendingIncomingLimit = 1
        let login = try secondLogin(bo.account)
        let boDevices = [try device(of: bo), try verifyingDevice(userID: bo.account.userID, deviceID: login.deviceID, token: login.token)]
        let queries = countQueries(of: annDevice)
        for boDevice in boDevices { try boDevice.keys.verifications.request(userID: ann.account.userID, deviceID: ann.account.deviceID) }

        try annDevice.sync()
        XCTAssertEqual(annDevice.verifications.map(\.stage), [.incoming], "the second waits not")
        XCTAssertEqual(queries.count(of: bo.account.userID), 1)
        for boDevice in boDevices { try boDevice.sync() }
        XCTAssertEqual(boDevices.flatMap(\.verifications).map(\.stage).sorted { "\($0)" < "\($1)" }, [.cancelled, .waitingForThem],
                       "the refused one was told")
    }

    func testARequestWhoseKeysCannotBeReadIsShownRefusedAndTheAskerTold() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server), bo = try registerUser("bo", on: server)
        let annDevice = try device(of: ann), boDevice = try device(of: bo)
        struct Unreachable: Error {}
        annDevice.keys.verifications.queryKeys = { _, _ in throw Unreachable() }
        let id = try boDevice.keys.verifications.request(userID: ann.account.userID, deviceID: ann.account.deviceID)

        try annDevice.sync()
        let shown = try XCTUnwrap(annDevice.verifications.first)
        XCTAssertEqual(shown.id, id)
        XCTAssertEqual(shown.stage, .cancelled)
        XCTAssertEqual(shown.words, "the asking device's keys could not be read")
        try boDevice.sync()
        XCTAssertEqual(boDevice.keys.verifications.verification(id)?.stage, .cancelled)
    }

    func testAMessageOfAnUnknownTransactionIsAnsweredOnceWithUnknownTransaction() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server), bo = try registerUser("bo", on: server)
        let annDevice = try device(of: ann)
        let key = UnpaddedBase64.encode([UInt8](repeating: 7, count: 32))
        for _ in 0..<2 {
            let answer = try bo.other.request(method: "PUT", path: "/_matrix/client/v3/sendToDevice/m.key.verification.key/\(UUID().uuidString)",
                                              body: ["messages": [ann.account.userID: [ann.account.deviceID: ["transaction_id": "nope", "key": key]]]])
            XCTAssertEqual(answer.status, 200)
        }
        try annDevice.sync()
        XCTAssertEqual(annDevice.verifications, [], "nothing to show")
        let events = (try bo.other.sync()["to_device"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        let cancels = events.filter { $0["type"] as? String == "m.key.verification.cancel" }.compactMap { $0["content"] as? [String: Any] }
        XCTAssertEqual(cancels.map { $0["code"] as? String }, ["m.unknown_transaction"], "\(events)")
        XCTAssertEqual(cancels.first?["transaction_id"] as? String, "nope")
    }

    func testADeviceNewerThanOurRoomRequestAnswersAndItsOwnKeyIsVerified() throws {
        let server = try self.server
        let ann = try registerUser("ann", on: server), bo = try registerUser("bo", on: server)
        let room = try ann.other.createRoom(invite: [bo.account.userID], initialState: [])
        _ = try bo.other.join(room)
        let annDevice = try device(of: ann)
        _ = try device(of: bo)
        annDevice.room = room
        let id = try annDevice.keys.verifications.request(userID: bo.account.userID, inRoom: room)
        // Bo signs in on a new device after the request went, and answers there.
        let login = try secondLogin(bo.account)
        let fresh = try verifyingDevice(userID: bo.account.userID, deviceID: login.deviceID, token: login.token, room: room)
        try drive([annDevice, fresh], act: {
            for device in [annDevice, fresh] {
                for verification in device.verifications {
                    switch verification.stage {
                    case .incoming: device.keys.verifications.accept(verification.id)
                    case .comparing: device.keys.verifications.confirm(verification.id)
                    default: break
                    }
                }
            }
        }, until: { [annDevice, fresh].allSatisfy { [.verified, .cancelled].contains($0.verifications.first?.stage) } })
        let ours = try XCTUnwrap(annDevice.keys.verifications.verification(id))
        XCTAssertEqual(ours.stage, .verified, ours.words)
        XCTAssertEqual(ours.deviceID, login.deviceID)
        XCTAssertTrue(annDevice.keys.verifications.isVerified(device: login.deviceID, of: bo.account.userID, key: fresh.keys.device.fingerprint))
    }
}
