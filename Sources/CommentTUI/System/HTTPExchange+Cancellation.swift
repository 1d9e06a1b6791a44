import Foundation

extension HTTPExchange {
    /// Ends exchanges in flight from another thread, and every later one before it starts.
    ///
    /// An exchange in flight notices on libcurl's progress beat, which libcurl calls while
    /// connecting and in a TLS handshake too (libcurl 7.88, measured by MatrixHostileServerTests:
    /// about 0.2 s from `cancel()` to the end, connecting, in a handshake or awaiting an answer).
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
