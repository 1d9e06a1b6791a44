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

    /// The process id, to name temporary files uniquely.
    static var processID: Int32 { getpid() }
}
