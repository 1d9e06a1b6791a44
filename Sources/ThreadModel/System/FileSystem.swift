import Glibc

/// Calls on names rather than open files, and the process id that makes names unique.
public enum FileSystem {
    /// Gives a finished file its final name unless that name exists already (never replaces).
    static func link(_ source: String, to destination: String) throws {
        guard Glibc.link(source, destination) == 0 else { throw SystemError("link", path: destination) }
    }

    /// Gives a finished file its final name, replacing what had that name (atomically).
    public static func rename(_ source: String, to destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else { throw SystemError("rename", path: destination) }
    }

    /// Replaces the file at `path` whole: written to a temporary file private to the user (0600),
    /// fsynced first when `synchronized`, then renamed over the old one, so a reader or a crash
    /// sees the old file or the new one, never half of one.
    public static func replace(_ path: String, with bytes: [UInt8], synchronized: Bool) throws {
        let temporary = path + ".tmp-\(processID)"
        let file = try FileDescriptor.openForWriting(temporary)
        do {
            // A leftover temporary file of the same name keeps its mode through O_TRUNC. Best
            // effort: a file system without modes (vfat, some network mounts) still gets the file.
            _ = fchmod(file.rawValue, 0o600)
            try file.writeAll(bytes)
            if synchronized { try file.synchronize() }
            file.close()
            try rename(temporary, to: path)
        } catch {
            file.close()
            unlink(temporary)
            throw error
        }
    }

    /// Removes a name.
    public static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// Removes a name; a name that does not exist is no error.
    public static func remove(_ path: String) throws {
        guard Glibc.unlink(path) == 0 || errno == ENOENT else { throw SystemError("unlink", path: path) }
    }

    /// Sets a file's permission bits.
    public static func setMode(_ path: String, _ mode: mode_t) throws {
        guard chmod(path, mode) == 0 else { throw SystemError("chmod", path: path) }
    }

    /// Makes `path` a directory only the user may enter (0700), with any missing parents (made
    /// 0700 too); an existing `path` is made 0700, its existing parents are left as they are.
    public static func makePrivateDirectory(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw SystemError("mkdir", path: prefix) }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw SystemError("stat", path: path) }
        // Best effort, as above: a directory that refuses modes still takes the files.
        if status.st_mode & 0o7777 != 0o700 { try? setMode(path, 0o700) }
    }

    /// The process id, to name temporary files uniquely.
    static var processID: Int32 { getpid() }
}
