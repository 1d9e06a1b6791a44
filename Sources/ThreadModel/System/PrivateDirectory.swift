import Glibc

/// A directory of the client's own files (thread state, caches, accounts, and keys), and the only
/// way those files are read and written.
///
/// Someone else who can write in the directory (a shared `$XDG_DATA_HOME`, a restored backup)
/// could plant a symbolic link, a FIFO or a hard link where a state file goes, and a client that
/// followed it would write a draft or a token where the link points. So:
/// - the directory must be a real directory (not a link), owned by the user and writable by no
///   one else, else every call is refused with a message naming it; it is made 0700;
/// - every call works relative to the directory opened once (`openat`), so renaming a parent
///   mid-call cannot redirect it;
/// - a file is opened with `O_NOFOLLOW` and used only if it is a regular file of the user's with
///   one name (a hard link to another file is refused too), and is kept 0600;
/// - a whole-file write goes to a new temporary file with an unpredictable name, created
///   exclusively (`O_EXCL`), then renamed over the old name, which replaces a planted link
///   without touching what it points to.
///
/// Thread files the person opened by path are not state files: they may be links made on
/// purpose, and `ThreadFileWriter` follows them.
public struct PrivateDirectory: Sendable {
    /// The directory.
    public let path: String

    /// The directory at `path`, made (0700, with missing parents) when it does not exist; throws,
    /// naming it, when it is not one the client may keep private files in.
    public init(_ path: String) throws {
        self.path = path
        try Self.make(path)
        try withDirectory { _ in }
    }

    /// The path of a file in the directory, for messages.
    public func path(of name: String) -> String { "\(path)/\(name)" }

    /// A file's bytes; nil when there is no such file. A name that is not a regular file of the
    /// user's (a link, a FIFO, a directory, another user's file) is refused, not followed.
    public func read(_ name: String) throws -> [UInt8]? {
        try withDirectory { directory in
            guard let file = try open(name, in: directory, flags: O_RDONLY) else { return nil }
            defer { file.close() }
            var bytes: [UInt8] = []
            while true {
                let chunk = try file.read(upTo: 1 << 16)
                if chunk.isEmpty { return bytes }
                bytes += chunk
            }
        }
    }

    /// Whether a file of that name is there; throws, naming it, when what is there is not a
    /// regular file of the user's with one name.
    public func contains(_ name: String) throws -> Bool {
        try withDirectory { directory in
            guard let file = try open(name, in: directory, flags: O_RDONLY) else { return false }
            file.close()
            return true
        }
    }

    /// Replaces a file whole: a reader, a crash or a full disk sees the old file or the new one,
    /// never half of one. `synchronized` makes the new file and its name durable before returning.
    public func replace(_ name: String, with bytes: [UInt8], synchronized: Bool) throws {
        try withDirectory { directory in
            let (file, temporary) = try createTemporary(for: name, in: directory)
            do {
                try file.writeAll(bytes)
                if synchronized { try file.synchronize() }
                file.close()
                guard renameat(directory.rawValue, temporary, directory.rawValue, name) == 0 else {
                    throw SystemError("rename", path: path(of: name))
                }
            } catch {
                file.close()
                _ = unlinkat(directory.rawValue, temporary, 0)
                throw error
            }
            if synchronized { try directory.synchronize() }
        }
    }

    /// Appends to a file (created 0600 when missing), fsynced before returning.
    public func append(_ name: String, _ bytes: [UInt8]) throws {
        try withDirectory { directory in
            guard let file = try open(name, in: directory, flags: O_WRONLY | O_APPEND | O_CREAT) else {
                throw SystemError("open", path: path(of: name), code: ENOENT)
            }
            defer { file.close() }
            try file.writeAll(bytes)
            try file.synchronize()
        }
    }

    /// Removes a name (a planted link itself, never what it points to); no such name is no error.
    public func remove(_ name: String) throws {
        try withDirectory { directory in
            guard unlinkat(directory.rawValue, name, 0) == 0 || errno == ENOENT else {
                throw SystemError("unlink", path: path(of: name))
            }
        }
    }

    /// Gives a file that no longer reads a free `<name>.broken-N` name, so the next write cannot
    /// replace it; returns the new path.
    public func setAside(_ name: String) throws -> String {
        try withDirectory { directory in
            // A new name is linked (never replacing one that exists), then the old one removed.
            for n in 1...10_000 {
                let target = "\(name).broken-\(n)"
                if linkat(directory.rawValue, name, directory.rawValue, target, 0) == 0 {
                    _ = unlinkat(directory.rawValue, name, 0)
                    // Opening a regular file of the user's makes it 0600; anything else stays as it is.
                    (try? open(target, in: directory, flags: O_RDONLY))??.close()
                    return path(of: target)
                }
                guard errno == EEXIST else { throw SystemError("link", path: path(of: target)) }
            }
            throw SystemError("link", path: path(of: name), code: EEXIST)
        }
    }

    /// Runs `body` with the directory open, after checking it is a directory of the user's that
    /// no one else may write in (a wider mode that lets others only read is narrowed to 0700).
    private func withDirectory<T>(_ body: (FileDescriptor) throws -> T) throws -> T {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            // With O_DIRECTORY, Linux answers a link ENOTDIR rather than ELOOP.
            var status = stat()
            if errno == ELOOP || (errno == ENOTDIR && lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK) {
                throw SystemError(refusing: path, "is a symbolic link; comment-tui keeps its files only in a directory of its own, never through a link")
            }
            if errno == ENOTDIR { throw SystemError(refusing: path, "is not a directory") }
            throw SystemError("open", path: path)
        }
        let directory = FileDescriptor(rawValue: fd, path: path)
        defer { directory.close() }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("fstat", path: path) }
        if status.st_uid != geteuid() {
            throw SystemError(refusing: path, "belongs to user \(status.st_uid), not to you (user \(geteuid())); comment-tui keeps its files only in a directory of yours", code: EPERM)
        }
        if status.st_mode & 0o022 != 0 {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw SystemError(refusing: path, "can be written by others (mode \(mode)); comment-tui keeps its files only in a directory only you can write: chmod 700 it", code: EPERM)
        }
        // Best effort: a directory that refuses modes (vfat, some network mounts) still takes files.
        if status.st_mode & 0o7777 != 0o700 { _ = fchmod(fd, 0o700) }
        return try body(directory)
    }

    /// Opens a file in the directory without following a link; nil when it does not exist (and
    /// `flags` do not create it). Refuses anything but a regular file of the user's with one name.
    private func open(_ name: String, in directory: FileDescriptor, flags: Int32) throws -> FileDescriptor? {
        precondition(!name.contains("/") && name != "." && name != "..", "a private file's name is one component")
        // O_NONBLOCK so a FIFO opens at once, to be refused; O_NOCTTY so a terminal never becomes ours.
        let all = flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        var fd: Int32
        repeat { fd = openat(directory.rawValue, name, all, 0o600) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw refusal(name, "is a symbolic link; comment-tui never follows a link to its own files")
            case ENXIO: throw refusal(name, "is a FIFO or a socket, not a regular file")
            case EISDIR: throw refusal(name, "is a directory, not a regular file")
            default: throw SystemError("open", path: path(of: name))
            }
        }
        let file = FileDescriptor(rawValue: fd, path: path(of: name))
        do {
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw SystemError("fstat", path: path(of: name)) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw refusal(name, "is \(FileDescriptor.kind(of: status.st_mode)), not a regular file")
            }
            guard status.st_uid == geteuid() else { throw refusal(name, "belongs to user \(status.st_uid), not to you") }
            guard status.st_nlink <= 1 else { throw refusal(name, "has other names (hard links); comment-tui writes only files of its own") }
            if status.st_mode & 0o7777 != 0o600 { _ = fchmod(fd, 0o600) }
            file.setNonBlocking(false)
            return file
        } catch {
            file.close()
            throw error
        }
    }

    /// A new file for the contents of `name`: named unpredictably, created exclusively, 0600.
    private func createTemporary(for name: String, in directory: FileDescriptor) throws -> (FileDescriptor, String) {
        for _ in 0..<100 {
            let temporary = ".\(name).\(String(UInt64.random(in: .min ... .max), radix: 36)).tmp"
            let fd = openat(directory.rawValue, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 {
                // The umask may have narrowed 0600 further; the file is the user's to read.
                _ = fchmod(fd, 0o600)
                return (FileDescriptor(rawValue: fd, path: path(of: temporary)), temporary)
            }
            guard errno == EEXIST || errno == EINTR else { throw SystemError("open", path: path(of: temporary)) }
        }
        throw SystemError("open", path: path(of: name), code: EEXIST)
    }

    private func refusal(_ name: String, _ explanation: String) -> SystemError {
        SystemError(refusing: path(of: name), explanation, code: EPERM)
    }

    /// Makes `path` and any missing parents, each 0700; existing ones are left as they are here.
    private static func make(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw SystemError("mkdir", path: prefix) }
        }
    }
}
