import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A relay on 127.0.0.1 from a port of its own to a server's, which a test cuts and restores:
/// a client talking through it loses the server while other clients keep it (the server cannot
/// be stopped for one client only).
///
/// Cut, it ends every connection through it and closes each new one at once; restored, it
/// relays again. Requests to a path can be stalled (`stall(path:)`): their bytes and their
/// answers wait in the relay until released, so a test decides what the client hears first;
/// their answers can be dripped instead (`drip(path:bytesPerSecond:)`), a few bytes at a time.
/// A thread accepts, and two threads per connection copy bytes each way.
public final class TCPRelay: @unchecked Sendable {
    /// The relay's port.
    public let port: Int
    private let target: Int
    private let listener: Int32
    private let lock = NSLock()
    private var isCut = false
    private var isStopped = false
    /// Both ends of each open connection, for `cut()` to end them.
    private var open: [ObjectIdentifier: Connection] = [:]
    /// Parts of request paths (`/sync`) whose requests and answers are held; waited on in `gate`.
    private var stalled: Set<String> = []
    /// Parts of request paths whose answers are relayed at most so many bytes a second.
    private var dripped: [String: Int] = [:]
    private var drippedCount = 0

    /// Bytes of answers relayed dripping so far.
    public var drippedBytes: Int { gate.withLock { drippedCount } }
    private let gate = NSCondition()

    /// A URL for clients to use in place of the server's.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts relaying to `targetPort` on 127.0.0.1.
    public init(to targetPort: Int) throws {
        target = targetPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SynapseFixtureError("relay: socket() errno \(errno)") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw SynapseFixtureError("relay: bind/listen errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "tcp-relay"
        thread.start()
    }

    deinit { stop() }

    /// Ends every connection and refuses new ones until `restore()`.
    public func cut() {
        lock.withLock {
            isCut = true
            for connection in open.values { connection.end() }
        }
    }

    /// Relays again.
    public func restore() { lock.withLock { isCut = false } }

    /// Holds every request whose path contains `path`, and the answer of one already sent,
    /// until `release(path:)` (or a cut or stop, which end the connection).
    public func stall(path: String) {
        gate.withLock { _ = stalled.insert(path) }
    }

    /// Lets the requests and answers held for `path` go on.
    public func release(path: String) {
        gate.withLock {
            stalled.remove(path)
            gate.broadcast()
        }
    }

    /// Relays the answers to requests whose path contains `path` at most `bytesPerSecond` (in
    /// tenths, every 0.1 s), until `stopDripping(path:)`: a server that keeps sending, slowly.
    public func drip(path: String, bytesPerSecond: Int) {
        gate.withLock { dripped[path] = bytesPerSecond }
    }

    /// Relays the answers for `path` at full speed again, the rest of one being dripped too.
    public func stopDripping(path: String) {
        gate.withLock { _ = dripped.removeValue(forKey: path) }
    }

    /// The rate the answer to the request `path` is dripped at, if it is.
    private func dripRate(_ path: String?) -> Int? {
        guard let path else { return nil }
        return gate.withLock { dripped.first { path.contains($0.key) }?.value }
    }

    /// Counts bytes relayed dripping.
    private func countDripped(_ count: Int) {
        gate.withLock { drippedCount += count }
    }

    /// Blocks while the request `path` (the connection's latest) is stalled.
    private func waitWhileStalled(_ path: String?) {
        guard let path else { return }
        gate.withLock {
            while stalled.contains(where: { path.contains($0) }), !lock.withLock({ isCut || isStopped }) { gate.wait(until: Date() + 0.1) }
        }
    }

    /// Stops accepting and ends every connection.
    public func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { isStopped = true }
            for connection in open.values { connection.end() }
            return isStopped
        }
        // Wakes the blocked accept() (EINVAL), which then closes the socket.
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            if lock.withLock({ isStopped }) {
                if client >= 0 { close(client) }
                return
            }
            guard client >= 0 else { continue }
            guard !lock.withLock({ isCut }), let upstream = connectToTarget() else {
                close(client)
                continue
            }
            let connection = Connection(client: client, upstream: upstream, gate: { [weak self] in self?.waitWhileStalled($0) },
                                        dripRate: { [weak self] in self?.dripRate($0) }, dripped: { [weak self] in self?.countDripped($0) }) { [weak self] finished in
                _ = self?.lock.withLock { self?.open.removeValue(forKey: ObjectIdentifier(finished)) }
            }
            lock.withLock { open[ObjectIdentifier(connection)] = connection }
            connection.start()
        }
    }

    private func connectToTarget() -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = Self.loopback(port: target)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// One relayed connection: bytes copied each way until either side ends; the sockets are
    /// closed once both copies are done (never while a copy may still use them).
    private final class Connection: @unchecked Sendable {
        let client: Int32
        let upstream: Int32
        private let lock = NSLock()
        private var running = 2
        /// The path of the latest request on the connection (HTTP/1.1: one at a time).
        private var path: String?
        private let gate: (String?) -> Void
        private let dripRate: (String?) -> Int?
        private let dripped: (Int) -> Void
        private let finished: (Connection) -> Void

        init(client: Int32, upstream: Int32, gate: @escaping (String?) -> Void, dripRate: @escaping (String?) -> Int?,
             dripped: @escaping (Int) -> Void, finished: @escaping (Connection) -> Void) {
            self.client = client
            self.upstream = upstream
            self.gate = gate
            self.dripRate = dripRate
            self.dripped = dripped
            self.finished = finished
        }

        func start() {
            Thread { [self] in copy(from: client, to: upstream, isRequest: true) }.start()
            Thread { [self] in copy(from: upstream, to: client, isRequest: false) }.start()
        }

        /// The target of a request line at the start of `bytes` (`GET /path?query HTTP/1.1`).
        private static func requestPath(_ bytes: ArraySlice<UInt8>) -> String? {
            let line = String(decoding: bytes.prefix(2048).prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[2].hasPrefix("HTTP/"), ["GET", "PUT", "POST", "DELETE", "HEAD", "OPTIONS"].contains(String(parts[0]))
            else { return nil }
            return String(parts[1])
        }

        /// Ends both directions: blocked reads return, and the copies finish.
        func end() {
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(upstream, Int32(SHUT_RDWR))
        }

        private func copy(from source: Int32, to destination: Int32, isRequest: Bool) {
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            pumping: while true {
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                if isRequest, let started = Self.requestPath(buffer[..<count]) { lock.withLock { path = started } }
                gate(lock.withLock { path })
                var written = 0
                while written < count {
                    // An answer being dripped goes a tenth of its rate every 0.1 s.
                    let rate = isRequest ? nil : dripRate(lock.withLock { path })
                    let piece = rate.map { min(count - written, max(1, $0 / 10)) } ?? count - written
                    if rate != nil { usleep(100_000) }
                    // MSG_NOSIGNAL: a peer gone must not raise SIGPIPE in the test process.
                    let step = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + written, piece, Int32(MSG_NOSIGNAL)) }
                    guard step > 0 else { break pumping }
                    if rate != nil { dripped(step) }
                    written += step
                }
            }
            end()
            let last = lock.withLock { () -> Bool in
                running -= 1
                return running == 0
            }
            guard last else { return }
            close(client)
            close(upstream)
            finished(self)
        }
    }
}
