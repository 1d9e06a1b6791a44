import Foundation

/// The key backup from outside the module (the benchmark's fresh devices): verifying the
/// device with the recovery key, which also keeps the backup key, and a room's backup restored.
extension MatrixAccountSync {
    /// Verifies the device whose keys `openRoomKeys` opened with the account's recovery key (as
    /// `comment-tui verify --recovery-key` does), keeping the key backup's key when the account has one.
    public func verifyWithRecoveryKey(_ recoveryKey: String) throws {
        guard let keys = roomKeys else { throw MatrixError(.malformed, "no room keys are open for this account") }
        _ = try keys.lock.withLock { try keys.device.verify(with: .recoveryKey(recoveryKey), client: keys.client) }
    }

    /// Restores every session of `roomID` the trusted key backup holds into the device's store;
    /// what went wrong, in words.
    public func restoreRoomKeysFromBackup(roomID: String) -> [String] {
        roomKeys?.restoreFromBackup(roomID: roomID, everything: true) ?? ["no room keys are open for this account"]
    }
}
