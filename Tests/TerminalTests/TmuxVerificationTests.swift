import Foundation
import XCTest
import SynapseFixture
import CommentTUITestSupport
@testable import CommentTUI
import ThreadModel

/// Two of our clients of the same account (two devices, each in a terminal and HOME of its
/// own) verify each other with emoji against the real Synapse: Alt-V on one asks, the other's
/// panel opens over home, both show the same seven emoji and numbers, `y` on both verifies, and
/// each device then trusts the other (the one holding the cross-signing keys signs the other on
/// the server). Said differ, cancelled or quit on one side, both say not verified. Pauses of a
/// second between a person's inputs.
final class TmuxVerificationTests: RunSynapseTestCase {
    /// Ann's account (a fresh one) and her two devices, logged in.
    private func annsTwoDevices(recoveryKey: Bool) throws -> (first: OwnDeviceTerminal, second: OwnDeviceTerminal, ann: MatrixTestAccount) {
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let ann = try server.register(localpart: "ann-\(suffix)", password: "pw-ann")
        let key = recoveryKey ? try MautrixPeer(homeserver: server.baseURL, userID: ann.userID, password: "pw-ann").setUpRecovery().recoveryKey : nil
        let first = try OwnDeviceTerminal(localpart: "ann-\(suffix)", password: "pw-ann", server: server)
        if let key { try first.verifyWithRecoveryKey(key) }
        let second = try OwnDeviceTerminal(localpart: "ann-\(suffix)", password: "pw-ann", server: server)
        XCTAssertNotEqual(first.deviceID, second.deviceID, "two logins, two devices")
        try first.startHome()
        try second.startHome()
        return (first, second, ann)
    }

    /// Alt-V on `first`; `second`'s panel opens with the request and Enter accepts it.
    private func request(from first: OwnDeviceTerminal, acceptedBy second: OwnDeviceTerminal) throws {
        try first.press("M-v")
        try first.waitForPanel(saying: "Verify this device")
        try first.waitForPanel(saying: "Waiting for your other device to accept")
        try second.waitForPanel(saying: "your other device asks to verify this device")
        try second.waitForPanel(saying: "Verify your device \(first.deviceID)")
        try second.press("Enter")
        try first.waitForPanel(saying: "Verify your device \(second.deviceID)")
    }

    /// `device`'s crypto store holds `other`'s Ed25519 key, as the server has it, as verified.
    private func assertTrusts(_ device: OwnDeviceTerminal, _ other: OwnDeviceTerminal, keys: JSONValue,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let key = try XCTUnwrap(keys["device_keys"]?[other.userID]?[other.deviceID]?["keys"]?["ed25519:\(other.deviceID)"]?.string)
        XCTAssertTrue(try device.keepsVerified(other, key: key), "\(device.deviceID) keeps \(other.deviceID)'s key as verified",
                      file: file, line: line)
    }

    /// Whether the server's `/keys/query` answer has `device` signed with the account's self-signing key.
    private func isCrossSigned(_ device: OwnDeviceTerminal, in keys: JSONValue) throws -> Bool {
        let selfSigning = try XCTUnwrap(keys["self_signing_keys"]?[device.userID]?["keys"]?.object?.keys.first)
        let signatures = keys["device_keys"]?[device.userID]?[device.deviceID]?["signatures"]?[device.userID]
        return signatures?[selfSigning]?.string?.isEmpty == false
    }

    private func queryKeys(of ann: MatrixTestAccount) throws -> JSONValue {
        try MatrixClient(homeserver: server.baseURL, accessToken: ann.accessToken).queryKeys(users: [ann.userID])
    }

    func testTwoDevicesOfOneAccountVerifyEachOtherWithTheSameEmojiOnBothScreens() throws {
        let (first, second, ann) = try annsTwoDevices(recoveryKey: true)
        let before = try queryKeys(of: ann)
        XCTAssertTrue(try isCrossSigned(first, in: before), "the recovery key signed the first device")
        XCTAssertFalse(try isCrossSigned(second, in: before), "nothing signed the second one yet")

        try request(from: first, acceptedBy: second)
        let seenFirst = try first.comparison()
        let seenSecond = try second.comparison()
        XCTAssertEqual(seenFirst, seenSecond, "both screens show the same emoji, names and numbers")
        // Seven emoji over seven names, and three numbers of four digits.
        // (The rows: the sentence, a blank, the emoji, their names, a blank, the numbers.)
        XCTAssertEqual(seenFirst.count, 6, seenFirst.joined(separator: "\n"))
        let emojiRow = seenFirst[2]
        XCTAssertEqual(emojiRow.split(separator: " ").count, 7, "seven emoji: \(emojiRow)")
        let numbers = try XCTUnwrap(seenFirst.last).components(separatedBy: "or the numbers ").last ?? ""
        let decimals = numbers.components(separatedBy: " · ").compactMap { Int($0) }
        XCTAssertEqual(decimals.count, 3, numbers)
        XCTAssertTrue(decimals.allSatisfy { (1000...9191).contains($0) }, numbers)

        try first.press("y")
        try first.waitForPanel(saying: "You said they match. Waiting for your other device")
        try second.press("y")
        try first.waitForPanel(saying: "✓ your device \(second.deviceID) is verified: each trusts the other.")
        try second.waitForPanel(saying: "✓ your device \(first.deviceID) is verified: each trusts the other.")
        // Each says what it did with the trust: the first, holding the cross-signing keys, signed.
        XCTAssertTrue(try first.waitForPanelText("device \(second.deviceID) marked verified here; signed with your self-signing key"))
        XCTAssertTrue(try second.waitForPanelText("device \(first.deviceID) marked verified here"))

        // Any key closes it; home is under it.
        for device in [first, second] { try device.closePanel() }
        try first.terminal.quit()
        try second.terminal.quit()

        let after = try queryKeys(of: ann)
        try assertTrusts(first, second, keys: after)
        try assertTrusts(second, first, keys: after)
        XCTAssertTrue(try isCrossSigned(second, in: after), "the first device, holding the cross-signing keys, signed the second")
    }

    func testTheyDifferOnOneSideOrTheAskerCancelsAndBothSayNotVerified() throws {
        let (first, second, ann) = try annsTwoDevices(recoveryKey: false)

        // The emoji differ, says the second device.
        try request(from: first, acceptedBy: second)
        XCTAssertEqual(try first.comparison(), try second.comparison())
        try second.press("n")
        XCTAssertTrue(try second.waitForPanelText("✗ Not verified: the emoji did not match: do not trust this device"))
        XCTAssertTrue(try first.waitForPanelText("✗ Not verified: \(ann.userID) (\(second.deviceID)) cancelled: the emoji did not match"))
        for device in [first, second] { try device.closePanel() }

        // Asked again, and cancelled by the asker before the other answers.
        try first.press("M-v")
        try second.waitForPanel(saying: "your other device asks to verify this device")
        try first.press("Escape")
        XCTAssertTrue(try first.waitForPanelText("✗ Not verified: the verification was cancelled"))
        XCTAssertTrue(try second.waitForPanelText("✗ Not verified: \(ann.userID) (\(first.deviceID)) cancelled: the verification was cancelled"))
        for device in [first, second] { try device.closePanel() }

        // (Quitting mid-verification cancels it on the other device: ClientVerificationTests.)
        try first.terminal.quit()
        try second.terminal.quit()

        let keys = try queryKeys(of: ann)
        for (device, other) in [(first, second), (second, first)] {
            let key = try XCTUnwrap(keys["device_keys"]?[other.userID]?[other.deviceID]?["keys"]?["ed25519:\(other.deviceID)"]?.string)
            XCTAssertFalse(try device.keepsVerified(other, key: key), "\(device.deviceID) does not trust \(other.deviceID)")
        }
    }
}
