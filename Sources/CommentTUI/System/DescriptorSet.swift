#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

// <sys/epoll.h> is not part of Glibc's Swift module; the calls are bound by name.
@_silgen_name("epoll_create1")
private func c_epoll_create1(_ flags: Int32) -> Int32
@_silgen_name("epoll_ctl")
private func c_epoll_ctl(_ epfd: Int32, _ op: Int32, _ fd: Int32, _ event: UnsafeMutableRawPointer) -> Int32

/// One descriptor readable while any of several others is (an epoll set), so a source with two
/// things to watch (a file's inotify watch, a pipe its writer thread wakes) still gives the loop
/// the one descriptor it polls. The members are not owned: they must outlive the set.
public final class DescriptorSet {
    /// The descriptor to poll; readable while a member is.
    public let descriptor: FileDescriptor

    private static let closeOnExec: Int32 = 0o2000000 // EPOLL_CLOEXEC == O_CLOEXEC
    private static let add: Int32 = 1                 // EPOLL_CTL_ADD
    private static let readable: UInt32 = 0x001       // EPOLLIN

    /// A set of `members`.
    public init(_ members: [FileDescriptor]) throws {
        let fd = c_epoll_create1(Self.closeOnExec)
        guard fd >= 0 else { throw SystemError("epoll_create1") }
        for member in members {
            // struct epoll_event: the events word first, then a data word we never read back
            // (the set is only polled, and every member drained); 16 bytes cover its layouts.
            var event = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: Self.readable) { event.replaceSubrange(0..<4, with: $0) }
            let added = event.withUnsafeMutableBytes { c_epoll_ctl(fd, Self.add, member.rawValue, $0.baseAddress!) }
            guard added == 0 else {
                let error = SystemError("epoll_ctl")
                Glibc.close(fd)
                throw error
            }
        }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }
}
