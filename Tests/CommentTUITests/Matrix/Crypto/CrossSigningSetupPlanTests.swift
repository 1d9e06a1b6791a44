import Foundation
import MatrixCrypto
import ThreadModel
import XCTest
@testable import CommentTUI

/// `CrossSigningSetup`'s pure steps: what it plans to write opens with the recovery key it makes,
/// through the very path `verify --recovery-key` takes, and an account with cross-signing or
/// secret storage is refused.
final class CrossSigningSetupPlanTests: XCTestCase {
    func testThePlannedSecretStorageOpensWithItsRecoveryKeyAndHoldsTheNewKeys() throws {
        var random = SystemRandom()
        let account = try OlmAccount(random: &random)
        let keys = try CrossSigningKeys.generate(userID: "@ann:test.local", random: &random)
        let plan = try CrossSigningSetup.plan(keys: keys, deviceID: "ANN", account: account, random: &random)
        let keyID = try XCTUnwrap(plan.defaultKey["key"]?.string)
        XCTAssertEqual(keyID.count, 32)
        XCTAssertTrue(keyID.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, keyID)
        XCTAssertEqual(plan.accountData.first?.type, "m.secret_storage.key.\(keyID)", "the description before the secrets")
        var accountData = Dictionary(plan.accountData.map { ($0.type, $0.content) }, uniquingKeysWith: { first, _ in first })
        accountData[SecretStorageKeyDescription.defaultKeyEventType] = plan.defaultKey
        XCTAssertEqual(Set(accountData.keys), [SecretStorageKeyDescription.defaultKeyEventType, "m.secret_storage.key.\(keyID)",
                                               CrossSigningKeys.masterSecretName, CrossSigningKeys.selfSigningSecretName,
                                               CrossSigningKeys.userSigningSecretName])

        let typed = plan.storageKey.recoveryKey.displayed
        let opened = try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(typed), accountData: accountData, userID: "@ann:test.local")
        XCTAssertEqual(opened.master.publicKey, plan.keys.master.publicKey)
        XCTAssertEqual(opened.selfSigning.publicKey, plan.keys.selfSigning.publicKey)
        XCTAssertEqual(opened.userSigning.publicKey, plan.keys.userSigning.publicKey)
        var wrong = try XCTUnwrap(RecoveryKey(typed: typed).key)
        wrong[0] ^= 1
        XCTAssertThrowsError(try RecoveryKeyVerification.crossSigningKeys(secret: .recoveryKey(RecoveryKey(key: wrong).displayed),
                                                                          accountData: accountData, userID: "@ann:test.local"))
        XCTAssertEqual(plan.upload["master_key"], plan.identity.master.json)
        XCTAssertNotNil(plan.upload["self_signing_key"]?["signatures"]?["@ann:test.local"], "signed by the master key")
        XCTAssertNotNil(plan.signatures["@ann:test.local"]?["ANN"], "our device signed by the self-signing key")
        XCTAssertFalse("\(plan.storageKey) \(plan.keys) \(plan.storageKey.recoveryKey)".contains(typed.prefix(9)), "printing shows no key")
    }

    func testAnAccountWithCrossSigningOrSecretStorageIsRefused() throws {
        XCTAssertNoThrow(try CrossSigningSetup.checkNoneYet(keysQuery: ["master_keys": [:]], defaultKeyPointer: nil, userID: "@ann:x"))
        XCTAssertThrowsError(try CrossSigningSetup.checkNoneYet(keysQuery: ["master_keys": ["@ann:x": ["keys": [:]]]], defaultKeyPointer: nil,
                                                                userID: "@ann:x")) {
            XCTAssertEqual($0 as? CrossSigningSetup.Refusal, .alreadyCrossSigning)
        }
        XCTAssertThrowsError(try CrossSigningSetup.checkNoneYet(keysQuery: [:], defaultKeyPointer: ["key": "abc"], userID: "@ann:x")) {
            XCTAssertEqual($0 as? CrossSigningSetup.Refusal, .alreadySecretStorage)
            XCTAssertTrue("\($0)".contains("comment-tui verify --recovery-key"))
        }
    }
}
