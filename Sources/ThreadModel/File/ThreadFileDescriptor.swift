import Glibc

/// A failed system call on a thread file: what was attempted, on which path, and the `errno` it left.
public struct ThreadFileError: Error, CustomStringConvertible, Sendable {
    /// The call or action that failed, e.g. "open" or "fsync".
    public var operation: String
    /// The file concerned.
    public var path: String
    /// The `errno` value.
    public var code: Int32

    public init(_ operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether the failure was that the file already exists.
    public var isAlreadyExists: Bool { code == EEXIST }

    public var description: String { "\(path): \(operation): \(String(cString: strerror(code)))" }
}

/// An open thread file: every C call of ThreadModel lives here, with Swift names.
struct ThreadFileDescriptor {
    let rawValue: Int32
    let path: String

    /// Opens an existing file for appending: writes always land at the end. Readable too, to
    /// check whether the file ends with a newline.
    static func openForAppend(_ path: String) throws -> ThreadFileDescriptor {
        try open(path, flags: O_RDWR | O_APPEND | O_CLOEXEC)
    }

    /// Creates a file that must not exist yet (never replaces one).
    static func createNew(_ path: String) throws -> ThreadFileDescriptor {
        try open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
    }

    /// Opens a file for reading.
    static func openForReading(_ path: String) throws -> ThreadFileDescriptor {
        try open(path, flags: O_RDONLY | O_CLOEXEC)
    }

    private static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws -> ThreadFileDescriptor {
        while true {
            let fd = Glibc.open(path, flags, mode)
            if fd >= 0 { return ThreadFileDescriptor(rawValue: fd, path: path) }
            if errno == EINTR { continue }
            throw ThreadFileError("open", path: path)
        }
    }

    /// Waits for the exclusive lock that serializes appends between processes.
    func lockExclusive() throws {
        while flock(rawValue, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw ThreadFileError("flock", path: path)
        }
    }

    /// Releases the lock (closing the descriptor also does).
    func unlock() { _ = flock(rawValue, LOCK_UN) }

    /// The file's size in bytes.
    func size() throws -> Int {
        var status = stat()
        guard fstat(rawValue, &status) == 0 else { throw ThreadFileError("fstat", path: path) }
        return Int(status.st_size)
    }

    /// The byte at an offset, read without moving the file position.
    func byte(at offset: Int) throws -> UInt8 {
        var byte: UInt8 = 0
        while true {
            let n = pread(rawValue, &byte, 1, off_t(offset))
            if n == 1 { return byte }
            if n < 0 && errno == EINTR { continue }
            throw ThreadFileError("pread", path: path, code: n < 0 ? errno : EIO)
        }
    }

    /// Writes bytes with one `write()`; a short write (a full disk) is finished by further calls.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ThreadFileError("write", path: path)
            }
            offset += n
        }
    }

    /// Flushes written data to the disk.
    func synchronize() throws {
        while fsync(rawValue) != 0 {
            if errno == EINTR { continue }
            throw ThreadFileError("fsync", path: path)
        }
    }

    /// Reads from the file position (the start, for a fresh descriptor) to the end.
    func readAll() throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(rawValue, $0.baseAddress, $0.count) }
            if n == 0 { return result }
            if n < 0 {
                if errno == EINTR { continue }
                throw ThreadFileError("read", path: path)
            }
            result.append(contentsOf: chunk[0..<n])
        }
    }

    /// Reads from `offset` to the end of the file, without moving the file position.
    func read(from offset: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var position = offset
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(rawValue, $0.baseAddress, $0.count, off_t(position)) }
            if n == 0 { return result }
            if n < 0 {
                if errno == EINTR { continue }
                throw ThreadFileError("read", path: path)
            }
            result.append(contentsOf: chunk[0..<n])
            position += n
        }
    }

    /// Reads the next bytes at the file position into `buffer` with one `read()`; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ThreadFileError("read", path: path)
        }
    }

    /// Reads `count` bytes at `offset` without moving the file position; fewer only at the end.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        try result.withUnsafeMutableBytes { buffer in
            while filled < count {
                let n = pread(rawValue, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ThreadFileError("pread", path: path)
                }
                filled += n
            }
        }
        result.removeLast(count - filled)
        return result
    }

    /// The offset of the first `\n` in `bytes[start..<end]`, or nil: glibc's `memchr` is vectorized,
    /// many times faster than a byte loop over a large file.
    static func firstNewline(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        guard start < end, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Closes the descriptor, releasing its lock.
    func close() { _ = Glibc.close(rawValue) }

    /// Gives a finished file its final name unless that name exists already (never replaces).
    static func link(_ source: String, to destination: String) throws {
        guard Glibc.link(source, destination) == 0 else { throw ThreadFileError("link", path: destination) }
    }

    /// Removes a name.
    static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// The process id, to name temporary files uniquely.
    static var processID: Int32 { getpid() }
}
