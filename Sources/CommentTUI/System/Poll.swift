import Glibc
import ThreadModel

/// Waits for descriptors to become readable: the loop's only place to block.
public enum Poll {
    /// Blocks until one of `descriptors` is readable or `timeout` seconds pass (nil: forever).
    ///
    /// Returns the readable descriptors (empty on timeout or interruption by a signal, whose
    /// self-pipe byte is then read on the next call).
    public static func readable(_ descriptors: [FileDescriptor], timeout: Double?) throws -> [FileDescriptor] {
        var fds = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
        let ms: Int32 = timeout.map { Int32(max(0, min(($0 * 1000).rounded(.up), 86_400_000))) } ?? -1
        let n = poll(&fds, nfds_t(fds.count), ms)
        if n < 0 {
            if errno == EINTR { return [] }
            throw SystemError("poll")
        }
        let ready = Int16(POLLIN | POLLHUP | POLLERR)
        return fds.filter { $0.revents & ready != 0 }.map { FileDescriptor(rawValue: $0.fd) }
    }
}
