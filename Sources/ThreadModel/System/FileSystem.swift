import Glibc

/// Calls on names rather than open files, and the process id that makes names unique.
enum FileSystem {
    /// Gives a finished file its final name unless that name exists already (never replaces).
    static func link(_ source: String, to destination: String) throws {
        guard Glibc.link(source, destination) == 0 else { throw SystemError("link", path: destination) }
    }

    /// Removes a name.
    static func unlink(_ path: String) { _ = Glibc.unlink(path) }

    /// The process id, to name temporary files uniquely.
    static var processID: Int32 { getpid() }
}
