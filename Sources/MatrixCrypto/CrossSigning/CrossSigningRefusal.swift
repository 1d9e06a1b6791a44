/// Why a cross-signing key or identity was not accepted, in words; never holds key bytes.
public struct CrossSigningRefusal: Error, Equatable, CustomStringConvertible {
    /// What is wrong ("the self-signing key is not signed by the master key").
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
