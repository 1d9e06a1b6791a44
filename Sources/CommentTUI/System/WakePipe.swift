import Glibc
import ThreadModel

/// A self-pipe another thread wakes the loop with: `wake()` anywhere, `readEnd` polled and
/// `drain()`ed by the loop.
///
/// Wakes carry no data: the waker queues what it learned first, then wakes; the loop drains
/// first, then takes the queue. In that order no wake is lost, and several wakes before the
/// loop looks cost one pass. Both ends are non-blocking and close-on-exec, so a waker never
/// stalls on a full pipe (it is readable already) and children (the editor) do not inherit it.
public final class WakePipe: Sendable {
    /// The end the loop polls; readable after a `wake()` not yet drained.
    public let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor

    /// Creates the pipe.
    public init() throws {
        let (r, w) = try FileDescriptor.pipe()
        r.setNonBlockingAndCloseOnExec()
        w.setNonBlockingAndCloseOnExec()
        readEnd = r
        writeEnd = w
    }

    deinit {
        readEnd.close()
        writeEnd.close()
    }

    /// Makes `readEnd` readable; safe from any thread, never blocks.
    public func wake() {
        var byte: UInt8 = 1
        while write(writeEnd.rawValue, &byte, 1) < 0, errno == EINTR {}
        // EAGAIN means the pipe is full, hence readable: the wake is not lost.
    }

    /// Empties the pipe (the loop's side), before taking what the wakes were for.
    public func drain() {
        while let bytes = try? readEnd.readAvailable(upTo: 256), !bytes.isEmpty {}
    }
}
