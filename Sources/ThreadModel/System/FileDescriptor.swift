import Glibc

/// A POSIX file descriptor with Swift-named operations: all raw file I/O of both modules goes here.
///
/// Two descriptors are equal when their numbers are; `path` only names the file in errors.
public struct FileDescriptor: Hashable, Sendable {
    /// The descriptor number.
    public let rawValue: Int32
    /// The file it was opened from, named in errors; nil for pipes, terminals and inherited ones.
    public let path: String?

    /// Wraps a descriptor number someone else opened.
    public init(rawValue: Int32, path: String? = nil) {
        self.rawValue = rawValue
        self.path = path
    }

    /// Descriptor 0.
    public static let standardInput = FileDescriptor(rawValue: 0)
    /// Descriptor 1.
    public static let standardOutput = FileDescriptor(rawValue: 1)
    /// Descriptor 2.
    public static let standardError = FileDescriptor(rawValue: 2)

    public static func == (lhs: FileDescriptor, rhs: FileDescriptor) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

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
            throw SystemError("read", path: path)
        }
    }

    /// Writes all bytes, retrying after interruptions and short writes (a full disk), and
    /// waiting for room when the descriptor is non-blocking and full (the terminal shares its
    /// open file with the client's non-blocking input).
    public func writeAll<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let n = array.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, array.count - offset) }
            if n < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN:
                    var entry = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, -1)
                    continue
                default: throw SystemError("write", path: path)
                }
            }
            offset += n
        }
    }

    /// Moves the file position to `offset` bytes from the start.
    public func seek(to offset: Int) throws {
        guard lseek(rawValue, off_t(offset), SEEK_SET) >= 0 else { throw SystemError("lseek", path: path) }
    }

    /// Closes the descriptor (releasing any lock it holds).
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

    /// A C stream on this descriptor, for APIs that take a `FILE *` (ncurses).
    public func stream(mode: String) throws -> UnsafeMutablePointer<FILE> {
        guard let file = fdopen(rawValue, mode) else { throw SystemError("fdopen \(rawValue)") }
        return file
    }
}
