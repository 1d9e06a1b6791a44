#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

// <sys/inotify.h> is not part of Glibc's Swift module; the three calls are bound by name.
@_silgen_name("inotify_init1")
private func c_inotify_init1(_ flags: Int32) -> Int32
@_silgen_name("inotify_add_watch")
private func c_inotify_add_watch(_ fd: Int32, _ path: UnsafePointer<CChar>, _ mask: UInt32) -> Int32

/// Wakes the loop when a file changes: an inotify descriptor for `poll()`.
public final class FileWatch {
    /// The descriptor the loop polls; readable after the file changed.
    public let descriptor: FileDescriptor

    // From <sys/inotify.h>: IN_MODIFY, IN_ATTRIB, IN_CLOSE_WRITE, IN_MOVE_SELF, IN_DELETE_SELF.
    private static let events: UInt32 = 0x2 | 0x4 | 0x8 | 0x800 | 0x400
    private static let nonBlocking: Int32 = 0o4000    // IN_NONBLOCK == O_NONBLOCK
    private static let closeOnExec: Int32 = 0o2000000 // IN_CLOEXEC == O_CLOEXEC

    /// Watches `path` for writes.
    public init(path: String) throws {
        let fd = c_inotify_init1(Self.nonBlocking | Self.closeOnExec)
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        guard c_inotify_add_watch(fd, path, Self.events) >= 0 else {
            let error = SystemError("watch \(path)")
            Glibc.close(fd)
            throw error
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// Reads and discards the pending notifications (the file itself says what changed).
    public func drain() {
        while let bytes = try? descriptor.read(upTo: 4096), !bytes.isEmpty {}
    }
}
