import Foundation

/// Giving an account's sync its room keys from outside the module (the benchmark's readers and
/// writers of an encrypted room), as the command line's verbs do with the account's file.
extension MatrixAccountSync {
    /// Opens the room keys of `userID`'s device `deviceID` from its crypto store where
    /// `environment` puts it (made on first use), so that rooms opened through this sync take
    /// the keys sent to the device, read their encrypted messages and send encrypted. Call
    /// before `start()` and before opening a room with it.
    ///
    /// Returns whether the keys opened. Why not, or what a store that did not read lost, goes
    /// to `complain` in words, never with a secret; without keys encrypted rooms stay unread
    /// and nothing is sent to them. Within one process a store's keys are shared while in use.
    @discardableResult
    public func openRoomKeys(userID: String, deviceID: String, environment: [String: String],
                             complain: (String) -> Void = { _ in }) -> Bool {
        let account = MatrixAccounts.Account(userID: userID, homeserver: client.homeserver.absoluteString,
                                             accessToken: client.accessToken ?? "", deviceID: deviceID)
        var told = false
        roomKeys = MatrixRoomKeys.open(client: client, account: account, environment: environment) { complaint in
            told = true
            complain(complaint)
        }
        // No place for the store is the one refusal `MatrixRoomKeys.open` keeps quiet about.
        if roomKeys == nil, !told { complain("encrypted rooms cannot be read: neither XDG_DATA_HOME nor HOME is set for the keys' store") }
        return roomKeys != nil
    }
}
