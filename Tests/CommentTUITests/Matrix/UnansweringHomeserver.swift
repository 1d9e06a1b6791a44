import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A homeserver on 127.0.0.1 that takes every request and never answers usably: it holds the
/// connection open without a word (`answer` nil), answers each request with a fixed body
/// (`{}`: a `200` without the `event_id` a send promises), or (`tricklesBody`) sends the headers
/// of a `200` and then its body a byte every 0.3 s, which never lets a request's idle timeout
/// fire. Synapse cannot misbehave so on demand; protocol behaviour stays tested against Synapse.
final class UnansweringHomeserver: @unchecked Sendable {
    let url: URL
    private let listener: Int32
    private let answer: String?
    private let tricklesBody: Bool
    private let lock = NSLock()
    private var held: [Int32] = []
    private var paths: [String] = []

    /// The request lines received so far (`PUT /_matrix/…`).
    var requests: [String] { lock.withLock { paths } }

    init(answer: String?, tricklesBody: Bool = false) throws {
        self.answer = answer
        self.tricklesBody = tricklesBody
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        var length = size
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) == 0 && listen(listener, 16) == 0 }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) == 0 }
        }
        let ready = bound && named
        guard listener >= 0, ready else { throw NSError(domain: "UnansweringHomeserver", code: Int(errno)) }
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread.detachNewThread { [self] in serve() }
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.withLock { held.append(connection) }
            Thread.detachNewThread { [self] in read(connection) }
        }
    }

    /// Reads requests (head and body) and answers each, or only reads them.
    private func read(_ connection: Int32) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            data.append(contentsOf: buffer[0..<count])
            while let headEnd = data.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: data[..<headEnd.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                guard data.count >= headEnd.upperBound + length else { break }
                data.removeSubrange(..<(headEnd.upperBound + length))
                lock.withLock { paths.append(head.components(separatedBy: "\r\n").first ?? "") }
                if tricklesBody {
                    Thread.detachNewThread { [self] in trickle(to: connection) }
                } else if let answer {
                    let reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(answer.utf8.count)\r\n\r\n\(answer)"
                    _ = reply.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                }
            }
        }
    }

    /// A `200` whose promised body comes a byte every 0.3 s, until the client hangs up.
    private func trickle(to connection: Int32) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
        guard head.withCString({ send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }) > 0 else { return }
        while true {
            Thread.sleep(forTimeInterval: 0.3)
            guard " ".withCString({ send(connection, $0, 1, Int32(MSG_NOSIGNAL)) }) == 1 else { return }
        }
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in lock.withLock({ held }) {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }
}
