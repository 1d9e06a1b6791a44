import CCurl
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
        /// The `Retry-After` header (of a 429), as sent.
        var retryAfter: String? = nil
    }

    /// Why an exchange failed.
    enum Failure: Error, Equatable {
        /// The body was longer, or announced itself longer, than the limit.
        case overLimit
        /// The headers were longer than `headerLimit`.
        case headersOverLimit
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
    }

    /// The most bytes of headers read, whatever the body's limit: a server has no reason to send more.
    static let headerLimit = 64 << 10

    /// libcurl's global set-up, done once before the first handle: curl_easy_init would do it
    /// implicitly, which older libcurl does not make safe from several threads at once.
    private static let globalSetUp: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// Runs `request`; throws `Failure`.
    static func perform(_ request: Request, cancellation: Cancellation, handles: HandlePool) throws -> Response {
        // Only when memory runs out: nothing else can stop libcurl from starting.
        guard globalSetUp == CURLE_OK, let easy = handles.take() else {
            throw Failure.unreachable("libcurl could not start a transfer")
        }
        defer { handles.give(easy) }
        if cancellation.isCancelled { throw Failure.cancelled }
        let collector = Collector(limit: request.limit, cancellation: cancellation)
        var headerList: UnsafeMutablePointer<curl_slist>?
        for line in request.headers { headerList = curl_slist_append(headerList, line) }
        defer { curl_slist_free_all(headerList) }
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE))
        // libcurl holds the collector only as a raw pointer: it must live until the transfer ends.
        let result: CURLcode = withExtendedLifetime(collector) {
            let context = Unmanaged.passUnretained(collector).toOpaque()
            return request.url.withCString { url in
                request.method.withCString { method in
                    errorText.withUnsafeMutableBufferPointer { errorBuffer in
                        set(easy, CURLOPT_URL, pointer: url)
                        set(easy, CURLOPT_NOSIGNAL, 1)
                        set(easy, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
                        set(easy, CURLOPT_FOLLOWLOCATION, 0)
                        set(easy, CURLOPT_TIMEOUT_MS, max(1, Int(request.deadline * 1000)))
                        // An announced body over the limit is refused before a byte of it.
                        _ = ctui_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.limit))
                        set(easy, CURLOPT_ERRORBUFFER, pointer: errorBuffer.baseAddress)
                        set(easy, CURLOPT_HTTPHEADER, pointer: headerList)
                        _ = ctui_curl_set_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                            Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().body(data, size * count)
                        }
                        set(easy, CURLOPT_WRITEDATA, pointer: context)
                        _ = ctui_curl_set_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                            Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().header(data, size * count)
                        }
                        set(easy, CURLOPT_HEADERDATA, pointer: context)
                        // The progress beat is where a cancellation from another thread is noticed.
                        set(easy, CURLOPT_NOPROGRESS, 0)
                        _ = ctui_curl_set_progress_callback(easy, CURLOPT_XFERINFOFUNCTION) { context, _, _, _, _ in
                            Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue().cancellation.isCancelled ? 1 : 0
                        }
                        set(easy, CURLOPT_XFERINFODATA, pointer: context)
                        if let body = request.body {
                            _ = ctui_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                            body.withUnsafeBytes { set(easy, CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress) }
                        }
                        if request.method != "GET" { set(easy, CURLOPT_CUSTOMREQUEST, pointer: method) }
                        return curl_easy_perform(easy)
                    }
                }
            }
        }
        let detail = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let failure = failure(result, detail: detail, collector: collector) { throw failure }
        var status = 0
        _ = ctui_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        return Response(status: status, body: collector.bytes, location: collector.location, retryAfter: collector.retryAfter)
    }

    /// What a finished transfer's result means; nil for success.
    private static func failure(_ code: CURLcode, detail: String, collector: Collector) -> Failure? {
        if collector.cancellation.isCancelled { return .cancelled }
        if collector.isOverHeaderLimit { return .headersOverLimit }
        if collector.isOverLimit { return .overLimit }
        switch code {
        case CURLE_OK: return nil
        case CURLE_FILESIZE_EXCEEDED: return .overLimit
        // How libcurl refuses one header line over its own 100 KiB buffer, before the collector
        // is handed it; once headers have started nothing else in a transfer reports this.
        case CURLE_OUT_OF_MEMORY where collector.headerBytes > 0 && !collector.bodyStarted: return .headersOverLimit
        case CURLE_OPERATION_TIMEDOUT: return .deadline
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return .certificate(detail)
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CIPHER,
             CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED:
            return .handshake(detail)
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR: return .connectionLost(detail)
        default: return .unreachable(detail)
        }
    }

    /// Sets an option taking a `long` on `easy`.
    private static func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) {
        _ = ctui_curl_set_long(easy, option, value)
    }

    /// Sets an option taking a pointer on `easy` (libcurl copies strings, keeps other pointers).
    private static func set(_ easy: UnsafeMutableRawPointer, _ option: CURLoption, pointer: UnsafeRawPointer?) {
        _ = ctui_curl_set_pointer(easy, option, pointer)
    }
}
