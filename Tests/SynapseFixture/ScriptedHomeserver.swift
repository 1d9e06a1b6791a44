import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A homeserver that misbehaves on demand, on 127.0.0.1: a plain HTTP/1.1 socket server whose
/// answers a test scripts per request (endless, huge or trickling bodies, hanging, redirects,
/// odd tokens), or a listening socket that never accepts (a black hole).
///
/// For misbehaviour only: what the protocol means is tested against the real Synapse. Bounded:
/// at most `connectionLimit` connections at once, each on a thread of its own that ends when
/// its peer goes or `stop()` is called (which `deinit` calls too, once no connection is being
/// served: a connection's thread holds the server while it answers).
public final class ScriptedHomeserver: @unchecked Sendable {
    /// A request as the server read it.
    public struct Request: Sendable {
        public var method: String
        /// The path with its query, as sent.
        public var target: String
        /// Header fields, names in lower case.
        public var headers: [String: String]
        public var body: Data
        /// The path without the query.
        public var path: String { String(target.prefix { $0 != "?" }) }
    }

    /// What the server answers a request with.
    public enum Answer: Sendable {
        /// Status, extra header fields and a body sent as `framing` says, `bytesPerSecond` at most.
        case body(status: Int, headers: [(String, String)], pieces: [Piece], framing: Framing, bytesPerSecond: Int?)
        /// Reads the request and never answers (until the peer leaves or the server stops).
        case hang
        /// A status line, then header lines of about 1 KiB without end (no body ever starts).
        case endlessHeaders

        /// A JSON answer, sent at once.
        public static func json(_ text: String, status: Int = 200) -> Answer {
            .body(status: status, headers: [("Content-Type", "application/json")], pieces: [.text(text)], framing: .contentLength, bytesPerSecond: nil)
        }
        /// A chunked body that never ends.
        public static let endlessChunked = Answer.body(status: 200, headers: [("Content-Type", "application/json")],
                                                       pieces: [.text("{\"next_batch\":\""), .forever(UInt8(ascii: "a"))],
                                                       framing: .chunked, bytesPerSecond: nil)
        /// A body that announces `bytes` (its Content-Length) and sends them as fast as read.
        public static func announced(_ bytes: Int) -> Answer {
            .body(status: 200, headers: [("Content-Type", "application/json")],
                  pieces: [.text("{\"x\":\""), .repeated(UInt8(ascii: "a"), bytes - 8), .text("\"}")],
                  framing: .contentLength, bytesPerSecond: nil)
        }
        /// A valid JSON answer sent at `bytesPerSecond`.
        public static func trickle(_ text: String, bytesPerSecond: Int) -> Answer {
            .body(status: 200, headers: [("Content-Type", "application/json")], pieces: [.text(text)], framing: .contentLength,
                  bytesPerSecond: bytesPerSecond)
        }
        /// A redirect to `location`.
        public static func redirect(_ location: String, status: Int = 307) -> Answer {
            .body(status: status, headers: [("Location", location)], pieces: [], framing: .contentLength, bytesPerSecond: nil)
        }
        /// A login answer with `token` as access token (`tokenLength` bytes of `a` when given).
        public static func login(userID: String = "@mallory:127.0.0.1", token: String = "tok", tokenLength: Int? = nil,
                                 deviceID: String = "DEV") -> Answer {
            let head = "{\"user_id\":\"\(userID)\",\"device_id\":\"\(deviceID)\",\"access_token\":\""
            let token: Piece = tokenLength.map { .repeated(UInt8(ascii: "a"), $0) } ?? .text(token)
            return .body(status: 200, headers: [("Content-Type", "application/json")], pieces: [.text(head), token, .text("\"}")],
                         framing: .contentLength, bytesPerSecond: nil)
        }
        /// What `/_matrix/client/versions` answers.
        public static let versions = Answer.json("{\"versions\":[\"v1.11\"]}")
    }

    /// A part of a body.
    public enum Piece: Sendable {
        case text(String)
        case repeated(UInt8, Int)
        case forever(UInt8)

        var length: Int? {
            switch self {
            case .text(let text): text.utf8.count
            case .repeated(_, let count): count
            case .forever: nil
            }
        }
    }

    /// How the body's end is told.
    public enum Framing: Sendable {
        /// A Content-Length of the pieces' total (a `forever` piece announces 2 GiB).
        case contentLength
        /// Transfer-Encoding: chunked.
        case chunked
    }

    /// The most connections served at once; more are closed at once.
    public let connectionLimit = 32
    /// The port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let script: @Sendable (Request) -> Answer
    private let lock = NSLock()
    private var stopped = false
    private var connections: Set<Int32> = []
    private var recorded: [Request] = []
    private var sent = 0
    private var acceptThread: Thread?
    /// A black hole's own connections that fill its queue (`fillQueue()`), closed by `stop()`.
    private var queued: [Int32] = []

    /// Starts listening; `accepts: false` makes a black hole (connections queue, none is read).
    public init(accepts: Bool = true, script: @escaping @Sendable (Request) -> Answer) throws {
        self.script = script
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SynapseFixtureError("scripted homeserver: socket() errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard bound == 0, named == 0, listen(listener, accepts ? 16 : 1) == 0 else {
            close(listener)
            throw SynapseFixtureError("scripted homeserver: bind/listen errno \(errno)")
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        guard accepts else { return }
        // Held weakly between accepts, so a server no test holds any more is released and its
        // deinit stops it; the listener is closed here, after the last accept.
        let thread = Thread { [weak self] in
            defer { close(listener) }
            while let server = self, !server.isStopped { server.acceptOne() }
        }
        thread.name = "scripted-homeserver-accept"
        acceptThread = thread
        thread.start()
    }

    deinit { stop() }

    /// The requests read so far, oldest first (the last 100).
    public var requests: [Request] { lock.withLock { recorded } }
    /// Bytes written to clients so far.
    public var bytesSent: Int { lock.withLock { sent } }

    /// Closes the listener and every connection; the threads end within a fraction of a second.
    ///
    /// Once only, and under the lock a connection is removed under before its descriptor is
    /// closed: a descriptor number shut down here is still this server's, never one the process
    /// has since reused for another server's socket.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
            for fd in queued { close(fd) }
            queued = []
            shutdown(listener, Int32(SHUT_RDWR))
            // Without an accept loop (a black hole) nothing else closes the listener.
            if acceptThread == nil { close(listener) }
        }
    }

    /// For a black hole: connects to it until the kernel stops completing connections (its
    /// queue of unaccepted ones is full), so the next connection stays in the connect phase,
    /// its SYNs dropped. Returns whether that point was reached (within 64 connections).
    public func fillQueue() -> Bool {
        for _ in 0..<64 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { return false }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            var watched = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let completed = poll(&watched, 1, 300) > 0
            lock.withLock { queued.append(fd) }
            if !completed { return true }
        }
        return false
    }

    private var isStopped: Bool { lock.withLock { stopped } }
    /// Whether `stop()` was called, for the wire's loops.
    var isStoppedForWire: Bool { isStopped }

    /// Counts bytes written, for `bytesSent`.
    func countSent(_ count: Int) { lock.withLock { sent += count } }

    /// Waits up to 0.2 s for a connection and serves it on a thread of its own.
    private func acceptOne() {
        var watched = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&watched, 1, 200) > 0 else { return }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        let admitted = lock.withLock { () -> Bool in
            guard !stopped, connections.count < connectionLimit else { return false }
            connections.insert(fd)
            return true
        }
        guard admitted else {
            close(fd)
            return
        }
        let thread = Thread { [weak self] in
            self?.serve(fd)
            close(fd)
        }
        thread.name = "scripted-homeserver-connection"
        thread.start()
    }

    private func serve(_ fd: Int32) {
        defer { _ = lock.withLock { connections.remove(fd) } }
        guard let request = readRequest(fd) else { return }
        lock.withLock {
            recorded.append(request)
            if recorded.count > 100 { recorded.removeFirst() }
        }
        switch script(request) {
        case .hang:
            waitForPeerToLeave(fd)
        case .endlessHeaders:
            sendEndlessHeaders(on: fd)
        case .body(let status, let headers, let pieces, let framing, let rate):
            send(status: status, headers: headers, pieces: pieces, framing: framing, rate: rate, on: fd)
        }
    }
}
