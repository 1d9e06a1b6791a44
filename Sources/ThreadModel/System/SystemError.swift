import Glibc

/// A failed system call: what was attempted, on which file if any, and the `errno` it left.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The call or action that failed, e.g. "poll", "open" or "spawn /bin/sh".
    public var operation: String
    /// The file concerned, when there is one; it leads the description.
    public var path: String?
    /// The `errno` value.
    public var code: Int32

    /// Records a failure; `code` defaults to the current `errno`, so create it right after the call.
    public init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether the failure was that the file already exists.
    public var isAlreadyExists: Bool { code == EEXIST }

    /// "path: operation: reason", or "operation: reason" without a path.
    public var description: String {
        let reason = "\(operation): \(String(cString: strerror(code)))"
        guard let path else { return reason }
        return "\(path): \(reason)"
    }
}
