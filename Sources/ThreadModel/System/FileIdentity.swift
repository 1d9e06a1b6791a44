import Glibc

/// Which file a name or an open descriptor refers to (device and inode): a thread file replaced
/// by `mv` has a new identity at the same path.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

extension FileDescriptor {
    /// The identity of the open file (it stays the same when its name is taken by another).
    public func identity() throws -> FileIdentity {
        var status = stat()
        guard fstat(rawValue, &status) == 0 else { throw SystemError("fstat", path: path) }
        return FileIdentity(status)
    }
}

extension FileSystem {
    /// The identity of the file `path` names now, following symbolic links; nil when nothing
    /// has the name.
    public static func identity(of path: String) throws -> FileIdentity? {
        var status = stat()
        guard lookUp(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemError("stat", path: path)
        }
        return FileIdentity(status)
    }
}

/// `stat(2)`, named apart from the struct of the same name.
private func lookUp(_ path: String, _ status: inout stat) -> Int32 { stat(path, &status) }
