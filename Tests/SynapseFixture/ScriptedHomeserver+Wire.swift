import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The scripted homeserver's bytes on the wire: reading a request, writing an answer.
extension ScriptedHomeserver {
    /// Reads a request head (at most 64 KiB) and a body of its Content-Length (at most 1 MiB);
    /// nil when the peer left or sent something else.
    func readRequest(_ fd: Int32) -> Request? {
        var bytes: [UInt8] = []
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard bytes.count < 64 << 10, let chunk = receive(fd) else { return nil }
            bytes += chunk
            headEnd = bytes.indices.dropLast(3).first { Array(bytes[$0..<($0 + 4)]) == separator }
        }
        let head = String(decoding: bytes[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(headEnd! + 4)...])
        let length = min(Int(headers["content-length"] ?? "") ?? 0, 1 << 20)
        while body.count < length {
            guard let chunk = receive(fd) else { return nil }
            body += chunk
        }
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data(body))
    }

    /// Up to 64 KiB from the peer, waiting at most until the server stops; nil at its end.
    private func receive(_ fd: Int32) -> [UInt8]? {
        while !isStoppedForWire {
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, 200) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            let count = recv(fd, &buffer, buffer.count, 0)
            // A signal (the test process has children) is not the peer leaving.
            if count < 0, errno == EINTR { continue }
            return count > 0 ? Array(buffer[..<count]) : nil
        }
        return nil
    }

    /// Holds the connection without a byte until the peer closes it or the server stops.
    func waitForPeerToLeave(_ fd: Int32) {
        while receive(fd) != nil {}
    }

    /// Writes the status line, headers and body; stops when the peer leaves or the server stops.
    func send(status: Int, headers: [(String, String)], pieces: [Piece], framing: Framing, rate: Int?, on fd: Int32) {
        var head = "HTTP/1.1 \(status) Scripted\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        switch framing {
        case .contentLength:
            let total = pieces.reduce(0) { $0 + ($1.length ?? (2 << 30)) }
            head += "Content-Length: \(total)\r\n"
        case .chunked:
            head += "Transfer-Encoding: chunked\r\n"
        }
        guard write(Array((head + "\r\n").utf8), to: fd, rate: nil) else { return }
        let chunked = framing == .chunked
        for piece in pieces {
            let ok: Bool
            switch piece {
            case .text(let text):
                ok = writeBody(Array(text.utf8), chunked: chunked, to: fd, rate: rate)
            case .repeated(let byte, var count):
                var going = true
                while going, count > 0 {
                    let block = min(count, 256 << 10)
                    going = writeBody([UInt8](repeating: byte, count: block), chunked: chunked, to: fd, rate: rate)
                    count -= block
                }
                ok = going
            case .forever(let byte):
                let block = [UInt8](repeating: byte, count: 256 << 10)
                while writeBody(block, chunked: chunked, to: fd, rate: rate) {}
                ok = false
            }
            guard ok else { return }
        }
        if chunked { _ = write(Array("0\r\n\r\n".utf8), to: fd, rate: nil) }
    }

    /// Writes a status line and then header lines, about 1 KiB each, until the peer leaves or
    /// the server stops: a client that keeps every header grows without bound.
    func sendEndlessHeaders(on fd: Int32) {
        guard write(Array("HTTP/1.1 200 Scripted\r\nContent-Type: application/json\r\n".utf8), to: fd, rate: nil) else { return }
        let filler = String(repeating: "a", count: 1000)
        var index = 0
        while write(Array("X-Filler-\(index): \(filler)\r\n".utf8), to: fd, rate: nil) { index += 1 }
    }

    private func writeBody(_ bytes: [UInt8], chunked: Bool, to fd: Int32, rate: Int?) -> Bool {
        guard !bytes.isEmpty else { return true }
        guard chunked else { return write(bytes, to: fd, rate: rate) }
        return write(Array((String(bytes.count, radix: 16) + "\r\n").utf8), to: fd, rate: nil)
            && write(bytes, to: fd, rate: rate) && write(Array("\r\n".utf8), to: fd, rate: nil)
    }

    /// Writes all of `bytes`, in sixteenths of `rate` every 1/16 s when a rate is given.
    private func write(_ bytes: [UInt8], to fd: Int32, rate: Int?) -> Bool {
        let step = rate.map { max(1, $0 / 16) } ?? bytes.count
        var offset = 0
        while offset < bytes.count {
            guard !isStoppedForWire else { return false }
            let end = min(bytes.count, offset + step)
            var piece = offset
            while piece < end {
                let written = bytes[piece..<end].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                piece += written
                countSent(written)
            }
            offset = end
            if rate != nil, offset < bytes.count { usleep(62_500) }
        }
        return true
    }
}
