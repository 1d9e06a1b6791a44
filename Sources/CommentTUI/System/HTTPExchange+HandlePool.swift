import CCurl
import Foundation

extension HTTPExchange {
    /// libcurl's easy handles kept between exchanges, so their open connections (and TLS
    /// sessions) are used again; one per exchange in flight, cleaned up with the pool.
    final class HandlePool: @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []

        init() {}

        deinit {
            for easy in idle { curl_easy_cleanup(easy) }
        }

        /// An idle handle, reset, or a new one; nil when libcurl cannot make one (out of memory).
        func take() -> UnsafeMutableRawPointer? {
            if let easy = lock.withLock({ idle.popLast() }) {
                curl_easy_reset(easy)
                return easy
            }
            return curl_easy_init()
        }

        /// Keeps `easy` for a later exchange, or cleans it up when enough are idle.
        func give(_ easy: UnsafeMutableRawPointer) {
            // A few are plenty: the sync, the sends and a verb at once.
            let kept = lock.withLock { () -> Bool in
                guard idle.count < 4 else { return false }
                idle.append(easy)
                return true
            }
            if !kept { curl_easy_cleanup(easy) }
        }
    }
}
