/// A cryptographic operation that did not succeed: a key of the wrong length, a padding or MAC
/// that does not check, a library call that refused. Names the operation, never a key's bytes.
public struct CryptoFailure: Error, Equatable, CustomStringConvertible {
    /// What was being done, in words ("AES-256-CBC decryption (bad padding or key)").
    public let operation: String

    public init(_ operation: String) { self.operation = operation }

    public var description: String { "\(operation) failed" }
}
