import Glibc

/// A failed system call: what was attempted, on which file if any, and the `errno` it left.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The call or action that failed, e.g. "poll", "open" or "spawn /bin/sh".
    public var operation: String
    /// The file concerned, when there is one; it leads the description.
    public var path: String?
    /// The `errno` value.
    public var code: Int32
    /// Says what is wrong in place of the operation and `errno`, when the call itself worked
    /// but its result is refused (a thread file that is a FIFO).
    public var explanation: String?

    /// Records a failure; `code` defaults to the current `errno`, so create it right after the call.
    public init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A refusal worded in full: "path: explanation".
    public init(refusing path: String?, _ explanation: String, code: Int32 = EINVAL) {
        self.init("open", path: path, code: code)
        self.explanation = explanation
    }

    /// Whether the failure was that the file already exists.
    public var isAlreadyExists: Bool { code == EEXIST }

    /// "path: operation: reason", or "operation: reason" without a path.
    public var description: String {
        let reason = explanation ?? "\(operation): \(Self.reason(code, of: operation))"
        guard let path else { return reason }
        return "\(path): \(reason)"
    }

    /// The C library's words for `code`, except where plainer ones help: a call that stores
    /// data says a full disk is one (ENOSPC also means "no inotify watches left", say).
    static func reason(_ code: Int32, of operation: String) -> String {
        switch code {
        case ENOSPC where storingOperations.contains(operation): "disk full (no space left on device)"
        case EDQUOT where storingOperations.contains(operation): "disk full (over the disk quota)"
        default: String(cString: strerror(code))
        }
    }

    /// Calls that fail with ENOSPC or EDQUOT when the disk is full.
    static let storingOperations: Set<String> = ["write", "pwrite", "fsync", "ftruncate", "open", "mkstemp", "mkdir", "link", "rename"]
}
