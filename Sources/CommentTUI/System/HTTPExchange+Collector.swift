import Foundation

extension HTTPExchange {
    /// The answer as libcurl hands it over, in the exchange's thread: body up to the limit, the
    /// headers up to `headerLimit` (only `Location` and `Retry-After` kept).
    final class Collector {
        /// The most bytes of body kept.
        let limit: Int
        /// Checked for each piece, so a cancelled exchange stops reading at once.
        let cancellation: Cancellation
        /// The body so far.
        private(set) var bytes = Data()
        /// The body went past `limit`.
        private(set) var isOverLimit = false
        /// The headers went past `headerLimit`.
        private(set) var isOverHeaderLimit = false
        /// The `Location` header, when there was one.
        private(set) var location: String?
        /// The `Retry-After` header, when there was one.
        private(set) var retryAfter: String?
        /// Bytes of headers so far, the status line's included.
        private(set) var headerBytes = 0
        /// Whether a byte of body came.
        private(set) var bodyStarted = false

        init(limit: Int, cancellation: Cancellation) {
            self.limit = limit
            self.cancellation = cancellation
        }

        /// A piece of body: kept, or the transfer stopped (a short count makes libcurl fail it).
        func body(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard !cancellation.isCancelled, let data, bytes.count + count <= limit else {
                isOverLimit = !cancellation.isCancelled
                return 0
            }
            bodyStarted = true
            data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes.append($0, count: count) }
            return count
        }

        /// A header line: counted against `headerLimit` (past it the transfer stops), and kept
        /// when it is `Location` or `Retry-After`.
        func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            headerBytes += count
            guard headerBytes <= HTTPExchange.headerLimit, let data else {
                isOverHeaderLimit = true
                return 0
            }
            let line = data.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
            let name = line.prefix { $0 != ":" }.lowercased()
            let value = { line.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines) }
            if name == "location" { location = value() }
            if name == "retry-after" { retryAfter = String(value().prefix(40)) }
            return count
        }
    }
}
