import Glibc

/// A failed system call: what was attempted and the `errno` it left.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The call or action that failed, e.g. "poll" or "open /tmp/x".
    public var operation: String
    /// The `errno` value.
    public var code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
