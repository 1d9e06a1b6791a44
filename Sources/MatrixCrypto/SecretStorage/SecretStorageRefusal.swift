/// Why secret storage could not be read or written, in words a person can act on. Never holds a
/// key's or a secret's bytes.
public struct SecretStorageRefusal: Error, Equatable, CustomStringConvertible {
    /// What went wrong ("this recovery key does not open this account's secret storage").
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }

    /// A recovery key whose check against the key description fails.
    public static let wrongRecoveryKey = SecretStorageRefusal("this recovery key does not open this account's secret storage")
    /// A passphrase whose derived key fails the same check.
    public static let wrongPassphrase = SecretStorageRefusal("this passphrase does not open this account's secret storage")
}
