import CLinux
import Foundation
import Glibc

/// A directory of the client's own files (thread state, caches, accounts, and keys), and the only
/// way those files are read and written.
///
/// Someone else who can write in the directory (a shared `$XDG_DATA_HOME`, a restored backup)
/// could plant a symbolic link, a FIFO or a hard link where a state file goes, and a client that
/// followed it would write a draft or a token where the link points. So:
/// - the directory must be the user's and writable by no one else, else every call is refused
///   with a message naming it (a link to it must be the user's too); it is made 0700;
/// - every call works relative to the directory opened once (`openat`), so renaming a parent
///   mid-call cannot redirect it;
/// - a file is opened with `O_NOFOLLOW` and used only if it is a regular file of the user's, and
///   is kept 0600; an append to a file with a second (hard) link rewrites it under a new name;
/// - a whole-file write goes to a new temporary file with an unpredictable name, created
///   exclusively (`O_EXCL`), then renamed over the old name, which replaces a planted link
///   without touching what it points to.
///
/// Thread files the person opened by path are not state files: they may be links made on
/// purpose, and `ThreadFileWriter` follows them. The demo thread is one such thread file,
/// written by the client into its data folder, which is checked here before it is.
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
        try withDirectory { directory in try readAll(name, in: directory) }
    }

    /// Whether a regular file of the user's has that name; throws, naming it, when something
    /// else has.
    public func contains(_ name: String) throws -> Bool {
        try withDirectory { directory in
            guard let file = try open(name, in: directory, flags: O_RDONLY, narrowingMode: false) else { return false }
            file.close()
            return true
        }
    }

    /// Replaces a file whole: a reader, a crash or a full disk sees the old file or the new one,
    /// never half of one. `synchronized` makes the new file and its name durable before returning.
    public func replace(_ name: String, with bytes: [UInt8], synchronized: Bool) throws {
        try withDirectory { directory in try replace(name, with: bytes, synchronized: synchronized, in: directory) }
    }

    /// Appends to a file (created 0600 when missing), fsynced before returning.
    public func append(_ name: String, _ bytes: [UInt8]) throws {
        try withDirectory { directory in
            guard let file = try open(name, in: directory, flags: O_WRONLY | O_APPEND | O_CREAT) else {
                throw SystemError("open", path: path(of: name), code: ENOENT)
            }
            var status = stat()
            guard fstat(file.rawValue, &status) == 0 else {
                let error = SystemError("fstat", path: path(of: name))
                file.close()
                throw error
            }
            if status.st_nlink > 1 {
                // Another name shares the file (a planted hard link, a `cp -al` backup): writing
                // to it would write there too, so the file gets a name of its own.
                file.close()
                let old = try readAll(name, in: directory) ?? []
                return try replace(name, with: old + bytes, synchronized: true, in: directory)
            }
            defer { file.close() }
            try file.writeAll(bytes)
            try file.synchronize()
        }
    }

    /// Takes the exclusive lock (`flock`) of the file `name` (made 0600 when missing) without
    /// waiting: the descriptor holds it until closed (at exit too). Nil when another open of the
    /// file holds it (another process using what it guards).
    public func holdLock(_ name: String) throws -> FileDescriptor? {
        try withDirectory { directory in
            guard let file = try open(name, in: directory, flags: O_RDWR | O_CREAT) else {
                throw SystemError("open", path: path(of: name), code: ENOENT)
            }
            while flock(file.rawValue, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                file.close()
                if code == EWOULDBLOCK { return nil }
                throw SystemError("flock", path: path(of: name), code: code)
            }
            return file
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
    /// replace it; returns the new path. A link is moved as it is, never followed.
    public func setAside(_ name: String) throws -> String {
        try withDirectory { directory in
            for n in 1...10_000 {
                let target = "\(name).broken-\(n)"
                if try move(name, to: target, in: directory) {
                    // The new name durable before anything is made under the old one.
                    try directory.synchronize()
                    // Opening a regular file of the user's makes it 0600; anything else stays as it is.
                    (try? open(target, in: directory, flags: O_RDONLY))??.close()
                    return path(of: target)
                }
            }
            throw SystemError("rename", path: path(of: name), code: EEXIST)
        }
    }

    /// Removes temporary files of `name` a crash left (one of the token's, say) once they are
    /// older than `age` seconds, so no write still going on loses its file.
    public func removeLeftovers(of name: String, olderThan age: TimeInterval = 60) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        try withDirectory { directory in
            for leftover in names where leftover.hasPrefix(".\(name).") && leftover.hasSuffix(".tmp") {
                var status = stat()
                guard fstatat(directory.rawValue, leftover, &status, AT_SYMLINK_NOFOLLOW) == 0,
                      Date().timeIntervalSince1970 - Double(status.st_mtim.tv_sec) > age else { continue }
                _ = unlinkat(directory.rawValue, leftover, 0)
            }
        }
    }
}

extension PrivateDirectory {
    /// Runs `body` with the directory open, after checking it is a directory of the user's that
    /// no one else may write in (a wider mode that lets others only read is narrowed to 0700).
    private func withDirectory<T>(_ body: (FileDescriptor) throws -> T) throws -> T {
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, link.st_uid != geteuid() {
            throw refusal(path, "is a symbolic link of user \(link.st_uid), not yours; comment-tui keeps its files only in a directory of yours")
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOTDIR { throw refusal(path, "is not a directory") }
            throw SystemError("open", path: path, code: code)
        }
        let directory = FileDescriptor(rawValue: fd, path: path)
        defer { directory.close() }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw SystemError("fstat", path: path) }
        if status.st_uid != geteuid() {
            throw refusal(path, "belongs to user \(status.st_uid), not to you (user \(geteuid())); comment-tui keeps its files only in a directory of yours")
        }
        // Writable by the user's own group only (umask 002 gives that where each user has a
        // group of their own): narrowed below, as is a mode that lets others read. Anyone else
        // able to write is refused: what they may have planted cannot be told from ours.
        let othersWrite = status.st_mode & 0o002 != 0 || (status.st_mode & 0o020 != 0 && status.st_gid != getegid())
        if othersWrite {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw refusal(path, "can be written by others (mode \(mode)); comment-tui keeps its files only in a directory only you can write: chmod 700 it")
        }
        if status.st_mode & 0o7777 != 0o700 {
            guard fchmod(fd, 0o700) == 0 || status.st_mode & 0o020 == 0 else {
                throw refusal(path, "can be written by its group, and its mode cannot be changed; comment-tui keeps its files only in a directory only you can write")
            }
        }
        return try body(directory)
    }

    /// Opens a file in the directory without following a link; nil when it does not exist (and
    /// `flags` do not create it). Refuses anything but a regular file of the user's.
    private func open(_ name: String, in directory: FileDescriptor, flags: Int32, narrowingMode: Bool = true) throws -> FileDescriptor? {
        precondition(!name.contains("/") && name != "." && name != "..", "a private file's name is one component")
        // O_NONBLOCK so a FIFO opens at once, to be refused; O_NOCTTY so a terminal never becomes ours.
        let all = flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        var fd: Int32
        repeat { fd = openat(directory.rawValue, name, all, 0o600) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            switch code {
            case ENOENT: return nil
            case ELOOP: throw refusal(path(of: name), "is a symbolic link; comment-tui never follows a link to its own files")
            case ENXIO: throw refusal(path(of: name), "is a FIFO or a socket, not a regular file")
            case EISDIR: throw refusal(path(of: name), "is a directory, not a regular file")
            default: throw SystemError("open", path: path(of: name), code: code)
            }
        }
        let file = FileDescriptor(rawValue: fd, path: path(of: name))
        do {
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw SystemError("fstat", path: path(of: name)) }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw refusal(path(of: name), "is \(FileDescriptor.kind(of: status.st_mode)), not a regular file")
            }
            guard status.st_uid == geteuid() else {
                throw refusal(path(of: name), "belongs to user \(status.st_uid), not to you; move it aside")
            }
            // A file with another name is not narrowed: the mode is the other name's too.
            if narrowingMode && status.st_nlink <= 1 && status.st_mode & 0o7777 != 0o600 { _ = fchmod(fd, 0o600) }
            file.setNonBlocking(false)
            return file
        } catch {
            file.close()
            throw error
        }
    }

    private func readAll(_ name: String, in directory: FileDescriptor) throws -> [UInt8]? {
        guard let file = try open(name, in: directory, flags: O_RDONLY) else { return nil }
        defer { file.close() }
        var bytes: [UInt8] = []
        while true {
            let chunk = try file.read(upTo: 1 << 16)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }

    private func replace(_ name: String, with bytes: [UInt8], synchronized: Bool, in directory: FileDescriptor) throws {
        let (file, temporary) = try createTemporary(for: name, in: directory)
        do {
            defer { file.close() }  // once, whatever happens
            try file.writeAll(bytes)
            if synchronized { try file.synchronize() }
        } catch {
            _ = unlinkat(directory.rawValue, temporary, 0)
            throw error
        }
        guard renameat(directory.rawValue, temporary, directory.rawValue, name) == 0 else {
            let code = errno
            _ = unlinkat(directory.rawValue, temporary, 0)
            if code == EISDIR { throw refusal(path(of: name), "is a directory, not a regular file") }
            throw SystemError("rename", path: path(of: name), code: code)
        }
        if synchronized { try directory.synchronize() }
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

    /// Renames `name` to `target` unless `target` exists (false then), never through a link.
    private func move(_ name: String, to target: String, in directory: FileDescriptor) throws -> Bool {
        if ctui_rename_no_replace(directory.rawValue, name, directory.rawValue, target) == 0 { return true }
        switch errno {
        case EEXIST: return false
        case EINVAL, ENOSYS:
            // A file system without RENAME_NOREPLACE: a link never replaces, then the old name goes.
            if linkat(directory.rawValue, name, directory.rawValue, target, 0) == 0 {
                _ = unlinkat(directory.rawValue, name, 0)
                return true
            }
            if errno == EEXIST { return false }
            throw SystemError("link", path: path(of: target))
        default:
            throw SystemError("rename", path: path(of: target))
        }
    }

    private func refusal(_ path: String, _ explanation: String) -> SystemError {
        SystemError(refusing: path, explanation, code: EPERM)
    }

    /// Makes `path` and any missing parents, each 0700; existing ones are left as they are here.
    /// Each one made has its parent fsynced, so its name survives a power loss.
    private static func make(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            let parent = prefix.isEmpty ? "/" : prefix
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 {
                let fd = Glibc.open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard fd >= 0 else { throw SystemError("open", path: parent) }
                let directory = FileDescriptor(rawValue: fd, path: parent)
                defer { directory.close() }
                try directory.synchronize()
            } else if errno != EEXIST {
                throw SystemError("mkdir", path: prefix)
            }
        }
    }
}
