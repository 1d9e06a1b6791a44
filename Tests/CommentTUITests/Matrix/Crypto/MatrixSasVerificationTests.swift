import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
@testable import CommentTUI

/// Interactive SAS verification to-device against a peer that follows the spec with vodozemac
/// (`SasHarnessPeer`), in both roles: the same emoji and numbers on both sides, a mismatch said
/// by either side, a timeout.
final class MatrixSasVerificationTests: SharedSynapseTestCase {
    private func setUp(harnessRole: SasHarnessPeer.Role, decision: SasHarnessPeer.Decision)
        throws -> (ours: VerifyingDevice, bo: MatrixTestUser, running: SasHarnessPeer.Running, harness: (id: String, ed25519: String)) {
        let server = try self.server
        let ann = try registerUser("ann", on: server)
        let bo = try registerUser("bo", on: server)
        let ours = try verifyingDevice(userID: ann.account.userID, deviceID: ann.account.deviceID, token: ann.account.accessToken)
        let peer = SasHarnessPeer(homeserver: server.baseURL, userID: bo.account.userID, password: bo.account.password)
        let running = try peer.start(role: harnessRole, partner: ann.account.userID, partnerDevice: ann.account.deviceID, decision: decision)
        return (ours, bo, running, try running.device())
    }

    /// Our person's answers: accept what comes, confirm (or say they differ at) the emoji.
    private func answer(_ device: VerifyingDevice, mismatch: Bool = false) {
        for verification in device.verifications {
            switch verification.stage {
            case .incoming: device.keys.verifications.accept(verification.id)
            case .comparing:
                if mismatch { device.keys.verifications.mismatch(verification.id) } else { device.keys.verifications.confirm(verification.id) }
            default: break
            }
        }
    }

    private var finished: (VerifyingDevice) -> Bool {
        { device in device.verifications.first.map { $0.stage == .verified || $0.stage == .cancelled } ?? false }
    }

    private func assertSameString(_ ours: MatrixVerification?, _ theirs: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ours?.emoji.count, 7, file: file, line: line)
        XCTAssertEqual(ours?.emoji.map(\.index), theirs["emoji"] as? [Int], "the emoji", file: file, line: line)
        XCTAssertEqual(ours?.decimals, theirs["decimals"] as? [Int], "the numbers", file: file, line: line)
    }

    func testTheyRequestWeAnswerAndBothShowTheSameEmojiAndNumbers() throws {
        let (ours, bo, running, harness) = try setUp(harnessRole: .request, decision: .match)
        var seen: MatrixVerification?
        try drive([ours], act: {
            if let comparing = ours.verifications.first(where: { $0.stage == .comparing }) { seen = comparing }
            answer(ours)
        }, until: { finished(ours) })
        let result = try running.result()
        XCTAssertEqual(result["outcome"] as? String, "done", "\(result)")
        XCTAssertEqual(result["verified"] as? Bool, true, "the harness checked our MAC")
        assertSameString(seen, result)
        let verification = try XCTUnwrap(ours.verifications.first)
        XCTAssertEqual(verification.stage, .verified, verification.words)
        XCTAssertFalse(verification.weRequested)
        XCTAssertEqual(verification.deviceID, harness.id)
        XCTAssertTrue(ours.keys.verifications.isVerified(device: harness.id, of: bo.account.userID, key: harness.ed25519))
        XCTAssertEqual(verification.trustNote, "\(bo.account.userID) marked verified here")
    }

    func testWeRequestTheyAnswerAndBothShowTheSameEmojiAndNumbers() throws {
        let (ours, bo, running, harness) = try setUp(harnessRole: .answer, decision: .match)
        let id = try ours.keys.verifications.request(userID: bo.account.userID, deviceID: harness.id)
        XCTAssertEqual(ours.keys.verifications.verification(id)?.stage, .waitingForThem)
        var seen: MatrixVerification?
        try drive([ours], act: {
            if let comparing = ours.verifications.first(where: { $0.stage == .comparing }) { seen = comparing }
            answer(ours)
        }, until: { finished(ours) })
        let result = try running.result()
        XCTAssertEqual(result["outcome"] as? String, "done", "\(result)")
        assertSameString(seen, result)
        XCTAssertEqual(ours.keys.verifications.verification(id)?.stage, .verified)
        XCTAssertTrue(ours.keys.verifications.isVerified(device: harness.id, of: bo.account.userID, key: harness.ed25519))
    }

    func testAMismatchSaidByEitherSideCancelsBothWithMismatchedSas() throws {
        // They say the emoji differ.
        let (ours, bo, running, harness) = try setUp(harnessRole: .answer, decision: .mismatch)
        try ours.keys.verifications.request(userID: bo.account.userID, deviceID: harness.id)
        try drive([ours], act: { answer(ours) }, until: { finished(ours) })
        XCTAssertEqual(try running.result()["sent_code"] as? String, "m.mismatched_sas")
        let theirs = try XCTUnwrap(ours.verifications.first)
        XCTAssertEqual(theirs.stage, .cancelled)
        XCTAssertEqual(theirs.cancelCode, .mismatchedSas)
        XCTAssertTrue(theirs.words.contains("cancelled: the emoji did not match"), theirs.words)
        XCTAssertFalse(ours.keys.verifications.isVerified(device: harness.id, of: bo.account.userID, key: harness.ed25519))

        // We say they differ.
        let (again, _, second, _) = try setUp(harnessRole: .request, decision: .match)
        try drive([again], act: { answer(again, mismatch: true) }, until: { finished(again) })
        let result = try second.result()
        XCTAssertEqual(result["cancel_code"] as? String, "m.mismatched_sas", "\(result)")
        XCTAssertEqual(again.verifications.first?.cancelCode, .mismatchedSas)
        XCTAssertEqual(again.verifications.first?.words, VerificationCancelCode.mismatchedSas.words)
    }

    func testNoAnswerTimesOutAndSaysMTimeout() throws {
        let (ours, bo, running, harness) = try setUp(harnessRole: .answer, decision: .ignoreRequest)
        let id = try ours.keys.verifications.request(userID: bo.account.userID, deviceID: harness.id)
        try ours.sync()
        XCTAssertEqual(ours.keys.verifications.verification(id)?.stage, .waitingForThem)
        // Ten minutes on, without waiting them.
        let later = Date().addingTimeInterval(SasVerification.lifetimeMilliseconds.seconds + 1)
        ours.keys.verifications.clock = { later }
        try ours.sync()
        let verification = try XCTUnwrap(ours.keys.verifications.verification(id))
        XCTAssertEqual(verification.stage, .cancelled)
        XCTAssertEqual(verification.cancelCode, .timeout)
        XCTAssertEqual(verification.words, "the verification timed out")
        XCTAssertEqual(try running.result()["cancel_code"] as? String, "m.timeout")
    }
}

private extension Int64 {
    var seconds: TimeInterval { TimeInterval(self) / 1000 }
}
