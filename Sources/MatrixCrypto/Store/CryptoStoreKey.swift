import ThreadModel

/// The 32-byte secret the crypto store is encrypted under, kept in its own file beside the
/// access token (the accounts file's folder: 0700, the file 0600, written whole and fsynced),
/// never in the store's folder, so a copy of the data folder alone does not open the store.
///
/// Never printed: its description says what it is, not what it holds.
public struct CryptoStoreKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    static let length = 32

    let bytes: [UInt8]

    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.length, "a store key is 32 bytes")
        self.bytes = bytes
    }

    public var description: String { "crypto store key (not shown)" }
    public var debugDescription: String { description }

    /// What loading the key found.
    struct Loaded {
        var key: CryptoStoreKey
        /// Nil when the key was read; else why a new one was made, in words (for the account of
        /// loss when a store was there that the new key cannot open).
        var madeBecause: String?
    }

    /// The key in `file` of `folder`, made with `random` (and written, fsynced, before it is
    /// used) when there is none. A file that is not a key is set aside, never overwritten.
    static func load(folder: PrivateDirectory, file: String, random: inout any RandomSource) throws -> Loaded {
        var madeBecause = "there was no store key beside the access token"
        if let bytes = try folder.read(file) {
            if bytes.count == length { return Loaded(key: CryptoStoreKey(bytes: bytes)) }
            let kept = try folder.setAside(file)
            madeBecause = "the store key beside the access token did not read (it was kept as \(kept))"
        }
        let key = CryptoStoreKey(bytes: try random.bytes(length))
        try folder.replace(file, with: key.bytes, synchronized: true)
        try? folder.removeLeftovers(of: file)
        return Loaded(key: key, madeBecause: madeBecause)
    }
}

/// Dumping shows nothing of the key either.
extension CryptoStoreKey: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
