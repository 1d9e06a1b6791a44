/// A crypto store the client may not open as asked, and that is left as it is: a passphrase
/// missing or wrong, or given to a store that has none. (A store that is damaged or under
/// another key is not refused: it is set aside, see `CryptoStoreLoss`.)
public struct CryptoStoreRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words a person can act on.
    public let reason: String

    public var description: String { "the encryption store was not opened: \(reason)" }

    public static let passphraseNeeded = CryptoStoreRefusal(reason: "it is protected by a passphrase; enter it")
    public static let wrongPassphrase = CryptoStoreRefusal(reason: "the passphrase does not match it; try again")
    public static let busy = CryptoStoreRefusal(reason: "another comment-tui has it open (one per account and device at a time); close that one first")
    public static let noPassphrase = CryptoStoreRefusal(reason: "it has no passphrase, but one was given")
}
