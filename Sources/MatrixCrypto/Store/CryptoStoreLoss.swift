/// What was lost when a crypto store that did not read was set aside and a fresh one started:
/// a value the client shows the person, once, when it happens.
public struct CryptoStoreLoss: Sendable, Equatable, CustomStringConvertible {
    /// Why the store did not read, in words ("its records do not check: a byte was changed or
    /// the file was cut short"); never key bytes.
    public let reason: String
    /// Where the old store was kept (it is never overwritten or deleted).
    public let keptAt: String

    public var description: String {
        "the encryption store could not be read (\(reason)); it was kept as \(keptAt); sessions before now will need their keys again"
    }
}
