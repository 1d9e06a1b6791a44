import Glibc

extension FileDescriptor {
    /// A pipe: (read end, write end).
    public static func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw SystemError("pipe") }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Opens a file for appending, creating it private to the user (a log).
    public static func openForAppend(_ path: String) throws -> FileDescriptor {
        try open(path, flags: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, mode: 0o600)
    }

    /// Opens a file for writing from its start, creating or emptying it (private to the user).
    public static func openForWriting(_ path: String) throws -> FileDescriptor {
        try open(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
    }

    /// Opens an existing thread file for appending: writes always land at the end. Readable
    /// too, to check whether the file ends with a newline. Only a regular file opens.
    static func openExistingForAppend(_ path: String) throws -> FileDescriptor {
        try openRegularFile(path, flags: O_RDWR | O_APPEND | O_CLOEXEC)
    }

    /// Creates a file that must not exist yet (never replaces one).
    static func createNew(_ path: String) throws -> FileDescriptor {
        try open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644)
    }

    /// A new file with no name in `directory` (created private, then unlinked): it is gone when
    /// closed or when the process dies, however it dies.
    public static func openUnnamed(in directory: String) throws -> FileDescriptor {
        var template = Array((directory + "/comment-tui-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SystemError("mkstemp", path: directory) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = Glibc.unlink(path)
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// Opens a thread file for reading; only a regular file opens.
    static func openForReading(_ path: String) throws -> FileDescriptor {
        try openRegularFile(path, flags: O_RDONLY | O_CLOEXEC)
    }

    /// Opens `path` and refuses it unless it is a regular file, without ever blocking: a FIFO
    /// would wait in `open()` for a writer, and a device such as `/dev/zero` never ends.
    private static func openRegularFile(_ path: String, flags: Int32) throws -> FileDescriptor {
        // O_NONBLOCK so a FIFO opens at once (to be refused); O_NOCTTY so a terminal never
        // becomes ours. Neither changes anything for a regular file.
        let file = try open(path, flags: flags | O_NONBLOCK | O_NOCTTY)
        var status = stat()
        guard fstat(file.rawValue, &status) == 0 else {
            let error = SystemError("fstat", path: path)
            file.close()
            throw error
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            file.close()
            throw SystemError(refusing: path, "not a regular file but \(kind(of: status.st_mode)); a thread file must be a regular file")
        }
        file.setNonBlocking(false)
        return file
    }

    /// What a file that is not a regular one is, in words.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "of an unknown kind"
        }
    }

    private static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws -> FileDescriptor {
        while true {
            let fd = Glibc.open(path, flags, mode)
            if fd >= 0 { return FileDescriptor(rawValue: fd, path: path) }
            if errno == EINTR { continue }
            throw SystemError("open", path: path)
        }
    }
}
