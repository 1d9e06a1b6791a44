import CLinux
import Foundation
import Glibc
import ThreadModel

/// A key export file the person names (`comment-tui keys export FILE` / `keys import FILE`):
/// written whole or not at all, private to the user, and never over another file unless asked;
/// read only when it is a regular file, and only up to a limit.
enum KeyFile {
    /// Writes `bytes` to `path`: to a new file of the user's (0600) with an unpredictable name
    /// beside it, fsynced, then renamed to `path`, so a crash leaves the old file or the whole
    /// new one. Without `replacing`, an existing `path` (a file, a link, anything) is left as it
    /// is and the write throws `EEXIST`.
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        let name = (path as NSString).lastPathComponent
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<100 {
            temporary = "\(folder)/.\(name).\(String(UInt64.random(in: .min ... .max), radix: 36)).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || (errno != EEXIST && errno != EINTR) { break }
        }
        guard descriptor >= 0 else { throw SystemError("open", path: path) }
        let file = FileDescriptor(rawValue: descriptor, path: temporary)
        do {
            defer { file.close() }
            // The umask may have narrowed 0600 further; no one else may read it.
            _ = fchmod(descriptor, 0o600)
            try file.writeAll(bytes)
            try file.synchronize()
        } catch {
            _ = unlink(temporary)
            throw error
        }
        let moved = replacing ? rename(temporary, path) : ctui_rename_no_replace(AT_FDCWD, temporary, AT_FDCWD, path)
        guard moved == 0 else {
            var code = errno
            // A file system without RENAME_NOREPLACE: a hard link never replaces either.
            if !replacing, code == EINVAL || code == ENOSYS {
                code = link(temporary, path) == 0 ? 0 : errno
            }
            _ = unlink(temporary)
            if code != 0 { throw SystemError("rename", path: path, code: code) }
            return
        }
        let parent = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if parent >= 0 {
            _ = fsync(parent)
            _ = close(parent)
        }
    }

    /// Whether something (a file, a link, even a dangling one) has the name `path`.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The bytes of the regular file `path`, or nil when it holds more than `limit` bytes.
    /// A FIFO or device is refused without blocking on it.
    static func read(_ path: String, limit: Int) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError("open", path: path) }
        let file = FileDescriptor(rawValue: descriptor, path: path)
        defer { file.close() }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SystemError("fstat", path: path) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw SystemError(refusing: path, "not a regular file") }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            let chunk = try file.read(upTo: min(1 << 16, limit + 1 - bytes.count))
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
        return nil
    }
}
