import ThreadModel

/// Where one account's and device's crypto store is: a folder of its own in the data folder
/// (`$XDG_DATA_HOME/comment-tui/crypto/`, else `~/.local/share/…`), and its key in a file beside
/// the access token (`$XDG_CONFIG_HOME/comment-tui/`, else `~/.config/…`, the accounts file's
/// folder). A new device (a new login) gets a new store: sessions belong to a device.
public struct CryptoStoreLocation: Sendable, Equatable {
    /// The folder that holds the store folders (0700).
    public let parent: String
    /// The store's folder name in `parent`.
    public let name: String
    /// The folder of the key file (the accounts file's).
    public let keyFolder: String
    /// The key file's name in `keyFolder`.
    public let keyFile: String

    /// The store's folder.
    public var path: String { "\(parent)/\(name)" }

    /// The store of `userID`'s device `deviceID` in explicit folders.
    public init(parent: String, keyFolder: String, userID: String, deviceID: String) {
        let stem = ThreadStateFiles.stem(key: "matrix-crypto:\(userID):\(deviceID)", name: userID)
        self.parent = parent
        self.keyFolder = keyFolder
        name = stem
        keyFile = "crypto-\(stem).key"
    }

    /// The store of `userID`'s device `deviceID` where the environment puts data and
    /// configuration; nil when neither the XDG folders nor `HOME` are set.
    public init?(userID: String, deviceID: String, environment: [String: String]) {
        let data: String
        if let folder = environment["XDG_DATA_HOME"], folder.hasPrefix("/") {
            data = folder
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            data = home + "/.local/share"
        } else {
            return nil
        }
        let config: String
        if let folder = environment["XDG_CONFIG_HOME"], folder.hasPrefix("/") {
            config = folder
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            config = home + "/.config"
        } else {
            return nil
        }
        self.init(parent: data + "/comment-tui/crypto", keyFolder: config + "/comment-tui", userID: userID, deviceID: deviceID)
    }
}
