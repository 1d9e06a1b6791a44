import Glibc

/// A POSIX file descriptor with Swift-named operations; all raw I/O of the client goes here.
public struct FileDescriptor: Hashable, Sendable {
    /// The descriptor number.
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    /// Reads what is available, up to `maximum` bytes; empty at end of file, and (for a
    /// non-blocking descriptor) when nothing is there: see `readAvailable` to tell them apart.
    public func read(upTo maximum: Int = 4096) throws -> [UInt8] {
        try readAvailable(upTo: maximum) ?? []
    }

    /// Reads what is available, up to `maximum` bytes: empty at end of file, nil when a
    /// non-blocking read finds nothing yet.
    public func readAvailable(upTo maximum: Int = 4096) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, maximum) }
            if n >= 0 { return Array(buffer[0..<n]) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw SystemError("read")
        }
    }

    /// Writes all bytes, retrying after interruptions and short writes.
    public func writeAll<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let n = array.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, array.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError("write")
            }
            offset += n
        }
    }

    /// Closes the descriptor.
    public func close() { _ = Glibc.close(rawValue) }

    /// Whether the descriptor is a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }

    /// Makes reads return at once when nothing is there, and keeps the descriptor from children.
    /// The flag belongs to the open file, which a terminal shares with the shell: undo it with
    /// `setNonBlocking(false)` before the shell reads the terminal again (exit, Ctrl-Z).
    public func setNonBlockingAndCloseOnExec() {
        setNonBlocking(true)
        _ = fcntl(rawValue, F_SETFD, FD_CLOEXEC)
    }

    /// Turns non-blocking reads on or off.
    public func setNonBlocking(_ on: Bool) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0 else { return }
        _ = fcntl(rawValue, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// Whether reads return at once when nothing is there.
    public var isNonBlocking: Bool { fcntl(rawValue, F_GETFL) & O_NONBLOCK != 0 }

    /// A pipe: (read end, write end).
    public static func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw SystemError("pipe") }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Opens a file for appending, creating it private to the user.
    public static func openForAppend(_ path: String) throws -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens a file for writing from its start, creating or emptying it.
    public static func openForWriting(_ path: String) throws -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError("open \(path)") }
        return FileDescriptor(rawValue: fd)
    }

    /// Points this descriptor number at another open file (`dup2`).
    public func redirect(to other: FileDescriptor) throws {
        guard dup2(other.rawValue, rawValue) >= 0 else { throw SystemError("dup2") }
    }

    /// A new descriptor for the same open file (`dup`).
    public func duplicate() throws -> FileDescriptor {
        let fd = dup(rawValue)
        guard fd >= 0 else { throw SystemError("dup") }
        return FileDescriptor(rawValue: fd)
    }

    /// A C stream on this descriptor, for APIs that take a `FILE *` (ncurses).
    public func stream(mode: String) throws -> UnsafeMutablePointer<FILE> {
        guard let file = fdopen(rawValue, mode) else { throw SystemError("fdopen \(rawValue)") }
        return file
    }
}
