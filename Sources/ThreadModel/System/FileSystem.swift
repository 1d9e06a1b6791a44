import Glibc

/// Calls on names rather than open files, and the process id that makes names unique.
public enum FileSystem {
    /// Gives a finished file its final name unless that name exists already (never replaces).
    static func link(_ source: String, to destination: String) throws {
        guard Glibc.link(source, destination) == 0 else { throw SystemError("link", path: destination) }
    }

    /// Gives a finished file its final name, replacing what had that name (atomically).
    static func rename(_ source: String, to destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else { throw SystemError("rename", path: destination) }
    }

    /// Removes a name.
    public static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// The process id, to name temporary files uniquely.
    static var processID: Int32 { getpid() }
}
