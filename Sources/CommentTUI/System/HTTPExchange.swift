import CLinux
import Foundation

/// One HTTP request through libcurl, blocking its caller, with the answer read under a byte
/// limit and the whole exchange under a deadline.
///
/// Not URLSession: Foundation on Linux hands each piece of a body to a delegate queue without
/// waiting, so a fast sender piles pieces up in memory faster than any limit can count them
/// (a 96 MiB limit let the client reach 1.5 GB). Here libcurl calls back in the reading thread
/// itself, and a piece over the limit stops the transfer before the next is read.
struct HTTPExchange {
    /// What to send.
    struct Request {
        var url: String
        var method: String
        /// Header lines (`Name: value`), already checked to hold no line breaks.
        var headers: [String]
        var body: [UInt8]?
        /// The most bytes of answer body to keep; past it the exchange fails.
        var limit: Int
        /// Seconds from start to the body's last byte.
        var deadline: TimeInterval
    }

    /// What came back.
    struct Response {
        var status: Int
        var body: Data
        /// The `Location` header of a redirect (never followed).
        var location: String?
    }

    /// Why an exchange failed.
    enum Failure: Error, Equatable {
        /// The body was longer, or announced itself longer, than the limit.
        case overLimit
        /// The deadline passed first.
        case deadline
        /// `Cancellation.cancel()` was called.
        case cancelled
        /// The TLS handshake happened and the certificate was refused (libcurl's words).
        case certificate(String)
        /// TLS could not be set up.
        case handshake(String)
        /// Connected, then closed or reset without an answer.
        case connectionLost(String)
        /// Refused, no route, no such host, or anything else before an answer.
        case unreachable(String)
        /// libcurl.so.4 is not installed.
        case noLibrary
    }

    /// Ends exchanges in flight from another thread (within about a second, libcurl's progress
    /// beat), and every later one at once.
    final class Cancellation: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        var isCancelled: Bool { lock.withLock { cancelled } }
        func cancel() { lock.withLock { cancelled = true } }
    }

    /// libcurl's handles kept between exchanges, so their open connections (and TLS sessions)
    /// are used again; one per exchange in flight, cleaned up with the pool.
    final class Connections: @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []

        init() {}

        deinit {
            guard var api = HTTPExchange.api else { return }
            for easy in idle { api.easy_cleanup(easy) }
        }

        fileprivate func take(_ api: inout ctui_curl_api) -> UnsafeMutableRawPointer? {
            if let easy = lock.withLock({ idle.popLast() }) {
                api.easy_reset(easy)
                return easy
            }
            return api.easy_init()
        }

        fileprivate func give(_ easy: UnsafeMutableRawPointer, _ api: inout ctui_curl_api) {
            // A few are plenty: the sync, the sends and a verb at once.
            let kept = lock.withLock { () -> Bool in
                guard idle.count < 4 else { return false }
                idle.append(easy)
                return true
            }
            if !kept { api.easy_cleanup(easy) }
        }
    }

    /// libcurl, loaded once; nil when the library cannot be found.
    nonisolated(unsafe) fileprivate static let api: ctui_curl_api? = {
        var api = ctui_curl_api()
        return ctui_curl_load(&api) == 0 ? api : nil
    }()

    /// Runs `request`; throws `Failure`.
    static func perform(_ request: Request, cancellation: Cancellation, connections: Connections) throws -> Response {
        guard var api = api, let easy = connections.take(&api) else { throw Failure.noLibrary }
        defer { connections.give(easy, &api) }
        if cancellation.isCancelled { throw Failure.cancelled }
        let collector = Collector(limit: request.limit, cancellation: cancellation)
        let context = Unmanaged.passUnretained(collector).toOpaque()
        var headerList: UnsafeMutableRawPointer?
        for line in request.headers { headerList = api.slist_append(headerList, line) }
        defer { if let headerList { api.slist_free_all(headerList) } }
        var errorText = [CChar](repeating: 0, count: 256)
        let result: Int32 = request.url.withCString { url in
            request.method.withCString { method in
                errorText.withUnsafeMutableBufferPointer { errorBuffer in
                    set(&api, easy, Option.url, pointer: url)
                    set(&api, easy, Option.noSignal, 1)
                    set(&api, easy, Option.protocols, 3) // http and https only
                    set(&api, easy, Option.followLocation, 0)
                    set(&api, easy, Option.timeoutMilliseconds, max(1, Int(request.deadline * 1000)))
                    // An announced body over the limit is refused before a byte of it.
                    _ = ctui_curl_set_offset(&api, easy, Option.maxFileSize, Int64(request.limit))
                    set(&api, easy, Option.errorBuffer, pointer: errorBuffer.baseAddress)
                    set(&api, easy, Option.httpHeader, pointer: headerList)
                    _ = ctui_curl_set_data_callback(&api, easy, Option.writeFunction, { data, size, count, context in
                        Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().body(data, size * count)
                    })
                    set(&api, easy, Option.writeData, pointer: context)
                    _ = ctui_curl_set_data_callback(&api, easy, Option.headerFunction, { data, size, count, context in
                        Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().header(data, size * count)
                    })
                    set(&api, easy, Option.headerData, pointer: context)
                    set(&api, easy, Option.noProgress, 0)
                    _ = ctui_curl_set_progress_callback(&api, easy, Option.progressFunction, { context, _, _, _, _ in
                        Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().cancellation.isCancelled ? 1 : 0
                    })
                    set(&api, easy, Option.progressData, pointer: context)
                    if let body = request.body {
                        _ = ctui_curl_set_offset(&api, easy, Option.postFieldSize, Int64(body.count))
                        body.withUnsafeBytes { set(&api, easy, Option.copyPostFields, pointer: $0.baseAddress) }
                    }
                    if request.method != "GET" { set(&api, easy, Option.customRequest, pointer: method) }
                    return api.easy_perform(easy)
                }
            }
        }
        let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let failure = failure(result, detail: detail, collector: collector) { throw failure }
        var status = 0
        _ = ctui_curl_get_long(&api, easy, Info.responseCode, &status)
        return Response(status: status, body: collector.bytes, location: collector.location)
    }

    private static func failure(_ code: Int32, detail: String, collector: Collector) -> Failure? {
        if collector.cancellation.isCancelled { return .cancelled }
        if collector.isOverLimit { return .overLimit }
        switch code {
        case 0: return nil
        case 63: return .overLimit // CURLE_FILESIZE_EXCEEDED
        case 28: return .deadline // CURLE_OPERATION_TIMEDOUT
        case 42: return .cancelled // CURLE_ABORTED_BY_CALLBACK
        case 51, 58, 60, 77, 80, 83, 90, 91: return .certificate(detail) // peer verification, CA, pinning
        case 35, 53, 54, 59, 64, 66: return .handshake(detail) // CURLE_SSL_CONNECT_ERROR and engine errors
        case 52, 55, 56: return .connectionLost(detail) // nothing, send or receive error
        default: return .unreachable(detail)
        }
    }

    private static func set(_ api: inout ctui_curl_api, _ easy: UnsafeMutableRawPointer, _ option: Int32, _ value: Int) {
        _ = ctui_curl_set_long(&api, easy, option, value)
    }

    private static func set(_ api: inout ctui_curl_api, _ easy: UnsafeMutableRawPointer, _ option: Int32, pointer: UnsafeRawPointer?) {
        _ = ctui_curl_set_pointer(&api, easy, option, pointer)
    }

    /// libcurl's option numbers (curl.h: type base + number).
    private enum Option {
        static let writeData: Int32 = 10001, url: Int32 = 10002, errorBuffer: Int32 = 10010, writeFunction: Int32 = 20011
        static let httpHeader: Int32 = 10023, headerData: Int32 = 10029, customRequest: Int32 = 10036
        static let noProgress: Int32 = 43, followLocation: Int32 = 52, progressData: Int32 = 10057
        static let headerFunction: Int32 = 20079, noSignal: Int32 = 99, timeoutMilliseconds: Int32 = 155
        static let maxFileSize: Int32 = 30117, postFieldSize: Int32 = 30120, copyPostFields: Int32 = 10165
        static let protocols: Int32 = 181, progressFunction: Int32 = 20219
    }

    private enum Info {
        static let responseCode: Int32 = 0x200002
    }
}

/// The answer as libcurl hands it over, in its own thread: body up to the limit, a few headers.
private final class Collector {
    let limit: Int
    let cancellation: HTTPExchange.Cancellation
    private(set) var bytes = Data()
    private(set) var isOverLimit = false
    private(set) var location: String?
    private var headerBytes = 0

    init(limit: Int, cancellation: HTTPExchange.Cancellation) {
        self.limit = limit
        self.cancellation = cancellation
    }

    /// A piece of body: kept, or the transfer stopped (a short count makes libcurl fail it).
    func body(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard !cancellation.isCancelled, let data, bytes.count + count <= limit else {
            isOverLimit = !cancellation.isCancelled
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes.append($0, count: count) }
        return count
    }

    /// A header line; only `Location` is kept, and 64 KiB of headers in all are read.
    func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        headerBytes += count
        guard headerBytes <= 64 << 10, let data else {
            isOverLimit = true
            return 0
        }
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
        if line.lowercased().hasPrefix("location:") {
            location = line.dropFirst("location:".count).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return count
    }
}
