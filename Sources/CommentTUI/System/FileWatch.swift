#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ThreadModel

// <sys/inotify.h> is not part of Glibc's Swift module; the calls are bound by name.
@_silgen_name("inotify_init1")
private func c_inotify_init1(_ flags: Int32) -> Int32
@_silgen_name("inotify_add_watch")
private func c_inotify_add_watch(_ fd: Int32, _ path: UnsafePointer<CChar>, _ mask: UInt32) -> Int32
@_silgen_name("inotify_rm_watch")
private func c_inotify_rm_watch(_ fd: Int32, _ wd: Int32) -> Int32

/// Wakes the loop when a file changes, or its name comes to mean another file: an inotify
/// descriptor for `poll()`, watching the file and the directory entries beside it.
public final class FileWatch {
    /// The descriptor the loop polls; readable after the file changed.
    public let descriptor: FileDescriptor
    private let path: String
    private var fileWatch: Int32

    // From <sys/inotify.h>: IN_MODIFY, IN_ATTRIB (also a link count change: the file was
    // removed or replaced), IN_CLOSE_WRITE, IN_MOVE_SELF, IN_DELETE_SELF.
    private static let fileEvents: UInt32 = 0x2 | 0x4 | 0x8 | 0x800 | 0x400
    // IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE, IN_ONLYDIR: a name in the directory
    // came or went (a file created where the thread was removed, one moved over it).
    private static let directoryEvents: UInt32 = 0x40 | 0x80 | 0x100 | 0x200 | 0x0100_0000
    private static let nonBlocking: Int32 = 0o4000    // IN_NONBLOCK == O_NONBLOCK
    private static let closeOnExec: Int32 = 0o2000000 // IN_CLOEXEC == O_CLOEXEC

    /// Watches `path` for writes, and its directory for names coming and going.
    public init(path: String) throws {
        let fd = c_inotify_init1(Self.nonBlocking | Self.closeOnExec)
        guard fd >= 0 else { throw SystemError("inotify_init1") }
        fileWatch = c_inotify_add_watch(fd, path, Self.fileEvents)
        guard fileWatch >= 0 else {
            let error = SystemError("watch \(path)")
            Glibc.close(fd)
            throw error
        }
        // Without the directory's watch (no permission to read it) a replaced or removed file
        // is still noticed through its own; only a file created later at the name is not.
        let directory = (path as NSString).deletingLastPathComponent
        _ = c_inotify_add_watch(fd, directory.isEmpty ? "." : directory, Self.directoryEvents)
        self.path = path
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// Watches the file the path names now (after it was replaced); false if it could not.
    @discardableResult
    public func rewatch() -> Bool {
        let watch = c_inotify_add_watch(descriptor.rawValue, path, Self.fileEvents)
        guard watch >= 0 else { return false }
        if watch != fileWatch { _ = c_inotify_rm_watch(descriptor.rawValue, fileWatch) }
        fileWatch = watch
        return true
    }

    /// Reads and discards the pending notifications (the file itself says what changed).
    public func drain() {
        while let bytes = try? descriptor.read(upTo: 4096), !bytes.isEmpty {}
    }
}
