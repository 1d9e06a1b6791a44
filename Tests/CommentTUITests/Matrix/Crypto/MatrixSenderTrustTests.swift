import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// Senders' trust as the keys work it out from a `/keys/query` answer (no server: the answer is
/// built here, signed with real keys): another user is verified only when our user-signing key
/// signed their master key, or that very key was verified with emoji here; we are once this
/// device is verified; a user without cross-signing is unverified; a changed identity beats it
/// all. A change of trust moves the count rooms watch.
final class MatrixSenderTrustTests: XCTestCase {
    private let me = "@ann:test.local", bo = "@bo:test.local", cy = "@cy:test.local", dan = "@dan:test.local"

    private func keys() throws -> MatrixRoomKeys {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let location = CryptoStoreLocation(parent: folder.appendingPathComponent("data").path, keyFolder: folder.appendingPathComponent("config").path,
                                           userID: me, deviceID: "ANN")
        return try MatrixRoomKeys(client: MatrixClient(homeserver: URL(string: "http://127.0.0.1:9")!, accessToken: "t"),
                                  userID: me, deviceID: "ANN", location: location)
    }

    private func crossSigning(_ user: String, _ first: UInt8) throws -> CrossSigningKeys {
        try CrossSigningKeys(userID: user, masterSeed: [UInt8](repeating: first, count: 32), selfSigningSeed: [UInt8](repeating: first + 1, count: 32),
                             userSigningSeed: [UInt8](repeating: first + 2, count: 32))
    }

    /// A `/keys/query` answer publishing each identity, each master key as given.
    private func answer(_ identities: [(CrossSigningIdentity, JSONValue)]) -> JSONValue {
        var masters: [String: JSONValue] = [:], selfSigning: [String: JSONValue] = [:]
        for (identity, master) in identities {
            masters[identity.userID] = master
            selfSigning[identity.userID] = identity.selfSigning.json
        }
        return ["master_keys": .object(masters), "self_signing_keys": .object(selfSigning), "device_keys": [:]]
    }

    func testOnlyAMasterKeySignedByOurUserSigningKeyIsVerified() throws {
        let keys = try keys()
        let ours = try crossSigning(me, 1), boKeys = try crossSigning(bo, 11), cyKeys = try crossSigning(cy, 21)
        try keys.device.store.put(ours, id: "own", in: MatrixDeviceCrypto.crossSigningKeys)
        let ourIdentity = try ours.publicIdentity(), boIdentity = try boKeys.publicIdentity(), cyIdentity = try cyKeys.publicIdentity()
        let boSigned = try JSONSigning.sign(boIdentity.master.json, userID: me, keyID: UnpaddedBase64.encode(ours.userSigning.publicKey),
                                            key: ours.userSigning)
        // Cy's master signed by a key that is not our user-signing key: not verified.
        let cySignedByOther = try JSONSigning.sign(cyIdentity.master.json, userID: me, keyID: UnpaddedBase64.encode(ours.selfSigning.publicKey),
                                                   key: ours.selfSigning)
        let published = answer([(ourIdentity, ourIdentity.master.json), (boIdentity, boSigned), (cyIdentity, cySignedByOther)])
        XCTAssertNil(keys.senderTrust(of: bo), "not read yet: nothing to say")
        let before = keys.identityChangeCount
        keys.lock.withLock {
            keys.noteIdentities(of: [me, bo, cy, dan], in: published)
            keys.noteTrust(of: [me, bo, cy, dan], in: published)
        }
        XCTAssertEqual(keys.senderTrust(of: bo), .verified)
        XCTAssertEqual(keys.senderTrust(of: cy), .unverified)
        XCTAssertEqual(keys.senderTrust(of: dan), .unverified, "no cross-signing at all")
        // Cy verified with emoji here (no signature went up): verified, for this master key only.
        try keys.device.store.put(MatrixVerifications.VerifiedKeys(users: [cy: cyIdentity.master.publicKeyBase64]), id: "verified",
                                  in: MatrixVerifications.verifiedKeys)
        keys.lock.withLock { keys.noteTrust(of: [cy], in: published) }
        XCTAssertEqual(keys.senderTrust(of: cy), .verified)
        try keys.device.store.put(MatrixVerifications.VerifiedKeys(users: [cy: boIdentity.master.publicKeyBase64]), id: "verified",
                                  in: MatrixVerifications.verifiedKeys)
        keys.lock.withLock { keys.noteTrust(of: [cy], in: published) }
        XCTAssertEqual(keys.senderTrust(of: cy), .unverified, "another master key than the one verified")
        XCTAssertEqual(keys.senderTrust(of: me), .unverified, "this device is not verified yet")
        XCTAssertGreaterThan(keys.identityChangeCount, before, "rooms draw their headers again")

        // This device verified: we are; read again, nothing else moves.
        try keys.device.store.put(true, id: "cross-signed", in: MatrixDeviceCrypto.deviceFlags)
        keys.lock.withLock { keys.noteTrust(of: [me], in: published) }
        XCTAssertEqual(keys.senderTrust(of: me), .verified)
        let settled = keys.identityChangeCount
        keys.lock.withLock { keys.noteTrust(of: [me, bo], in: published) }
        XCTAssertEqual(keys.identityChangeCount, settled, "the same trust is no change")

        // Bo's identity replaced: loud, whatever signed the new one.
        let boAgain = try crossSigning(bo, 31).publicIdentity()
        let replaced = answer([(boAgain, boAgain.master.json)])
        keys.lock.withLock {
            keys.noteIdentities(of: [bo], in: replaced)
            keys.noteTrust(of: [bo], in: replaced)
        }
        XCTAssertEqual(keys.senderTrust(of: bo), .identityChanged)
    }
}
