import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One account's line to a homeserver: Client-Server API requests that block their caller.
///
/// Only the sync and send threads and the verbs call it, never the UI loop. A request can be
/// cancelled from another thread (`cancelAll()`), which is how a stopping source ends a long poll.
public final class MatrixClient: @unchecked Sendable {
    /// The homeserver's base URL (`https://matrix.example.org`).
    public let homeserver: URL
    /// The access token, sent as a header and never shown.
    public let accessToken: String?
    /// With an application service's token: the user of its namespace the requests act as.
    public let assertedUser: String?
    private let session: URLSession
    private let lock = NSLock()
    private var running: [Int: URLSessionDataTask] = [:]
    private var nextTaskNumber = 0
    private var isCancelled = false
    private var received = 0

    /// Bytes of answers (bodies) received so far, for the benchmark's figures.
    public var bytesReceived: Int { lock.withLock { received } }

    /// A client for `homeserver`, signed in when `accessToken` is given.
    public init(homeserver: URL, accessToken: String? = nil, assertedUser: String? = nil) {
        self.homeserver = homeserver
        self.accessToken = accessToken
        self.assertedUser = assertedUser
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.invalidateAndCancel() }

    /// The same homeserver with another token (after logging in).
    public func signedIn(with token: String) -> MatrixClient { MatrixClient(homeserver: homeserver, accessToken: token) }

    /// Ends every request in flight, and every later one, with `.cancelled`.
    public func cancelAll() {
        lock.lock()
        isCancelled = true
        let tasks = running.values
        lock.unlock()
        tasks.forEach { $0.cancel() }
    }

    /// Sends a request under `/_matrix/client/v3` and returns the JSON answer.
    /// - Parameters:
    ///   - path: path components after the version, each percent-encoded here (room ids, aliases).
    ///   - timeout: seconds before giving up (a long poll asks for its own timeout plus a margin).
    ///   - hardDeadline: also give up once `timeout` seconds passed in all, answer or not (a
    ///     send: URLSession on Linux leaves a request the server never answers waiting for good).
    @discardableResult
    public func request(_ method: String, _ path: [String], query: [String: String] = [:], body: JSONValue? = nil,
                        timeout: TimeInterval = 20, hardDeadline: Bool = false) throws -> JSONValue {
        var query = query
        if let assertedUser { query["user_id"] = assertedUser }
        let url = try url(path, query: query)
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body.serialized()
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if method != "GET" {
            request.httpBody = Data("{}".utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, status) = try exchange(request, deadline: hardDeadline ? timeout : nil)
        let json = try? JSONValue(parsing: data)
        guard (200..<300).contains(status) else { throw Self.serverError(status: status, json: json) }
        guard let json else { throw MatrixError(.malformed, "\(homeserver.absoluteString) answered with something other than JSON") }
        return json
    }

    /// The full URL of an API path; components are encoded so `#alias:server` stays one segment.
    func url(_ path: [String], query: [String: String]) throws -> URL {
        let encoded = path.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? "" }
        guard var components = URLComponents(url: homeserver, resolvingAgainstBaseURL: false) else {
            throw MatrixError(.unreachable, "not a homeserver URL: \(homeserver.absoluteString)")
        }
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        let prefix = path.first == "media" ? "/_matrix" : "/_matrix/client"
        components.percentEncodedPath = base + prefix + "/v3/" + encoded.joined(separator: "/")
        if !query.isEmpty {
            components.percentEncodedQueryItems = query.sorted { $0.key < $1.key }.map {
                URLQueryItem(name: $0.key, value: $0.value.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters))
            }
        }
        guard let url = components.url else { throw MatrixError(.unreachable, "not a homeserver URL: \(homeserver.absoluteString)") }
        return url
    }

    /// Unreserved characters only: everything else in a path segment or query value is escaped.
    private static let segmentCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private func exchange(_ request: URLRequest, deadline: TimeInterval? = nil) throws -> (Data, Int) {
        let done = DispatchSemaphore(value: 0)
        let outcome = ExchangeOutcome()
        let task = session.dataTask(with: request) { data, response, error in
            outcome.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }
        lock.lock()
        if isCancelled {
            lock.unlock()
            throw MatrixError(.cancelled, "stopped")
        }
        let number = nextTaskNumber
        nextTaskNumber += 1
        running[number] = task
        lock.unlock()
        task.resume()
        let answeredInTime = Self.waitForAnswer(done, deadline: deadline, cancel: task.cancel)
        lock.lock()
        running[number] = nil
        let cancelled = isCancelled
        let (data, status, error) = outcome.get()
        received += data?.count ?? 0
        lock.unlock()
        if cancelled { throw MatrixError(.cancelled, "stopped") }
        if !answeredInTime { throw describe(URLError(.timedOut)) }
        if let error { throw describe(error) }
        guard let status else { throw MatrixError(.malformed, "\(homeserver.absoluteString) gave no HTTP answer") }
        return (data ?? Data(), status)
    }

    /// How long a request cancelled at its deadline is given to end: URLSession may never call back.
    static let cancelGrace: TimeInterval = 2

    /// Waits until a request ends (`done`), at most `deadline` seconds when one is given: past it,
    /// cancels the request and waits at most `cancelGrace` more. False when the deadline passed.
    static func waitForAnswer(_ done: DispatchSemaphore, deadline: TimeInterval?, cancel: () -> Void) -> Bool {
        guard let deadline else {
            done.wait()
            return true
        }
        guard done.wait(timeout: .now() + deadline) == .timedOut else { return true }
        cancel()
        _ = done.wait(timeout: .now() + cancelGrace)
        return false
    }

    /// Words a transport error: the homeserver's URL, and whether it was TLS or the network.
    private func describe(_ error: Error) -> MatrixError {
        let code = (error as? URLError)?.code
        let server = homeserver.absoluteString
        switch code {
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
             .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?, .clientCertificateRejected?:
            return MatrixError(.tls, "TLS failure talking to \(server): the certificate was not accepted")
        case .timedOut?:
            var error = MatrixError(.unreachable, "homeserver \(server) did not answer in time")
            error.timedOut = true
            return error
        case .cancelled?:
            return MatrixError(.cancelled, "stopped")
        default:
            return MatrixError(.unreachable, "homeserver \(server) is unreachable")
        }
    }

    /// The Matrix error in an error answer, worded for the status bar and the verbs.
    static func serverError(status: Int, json: JSONValue?) -> MatrixError {
        let code = json?["errcode"]?.string
        let text = json?["error"]?.string.map { VisibleText.escape($0) }
        let message: String
        switch (status, code) {
        case (_, "M_FORBIDDEN"?) where text?.lowercased().contains("password") == true,
             (_, "M_FORBIDDEN"?) where text?.lowercased().contains("invalid username") == true:
            message = "bad user name or password"
        case (_, "M_UNKNOWN_TOKEN"?): message = "the session has ended on the server; log in again"
        case (_, "M_FORBIDDEN"?): message = "forbidden" + (text.map { ": \($0)" } ?? "")
        case (_, "M_NOT_FOUND"?): message = "not found" + (text.map { ": \($0)" } ?? "")
        case (_, "M_LIMIT_EXCEEDED"?): message = "rate limited by the homeserver"
        default: message = "the homeserver answered \(status)" + (code.map { " \($0)" } ?? "") + (text.map { ": \($0)" } ?? "")
        }
        var error = MatrixError(.server(status: status, errcode: code), message)
        if let wait = json?["retry_after_ms"]?.int { error.retryAfter = Double(wait) / 1000 }
        return error
    }
}

/// What a data task delivered, handed from URLSession's queue to the waiting caller.
private final class ExchangeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var status: Int?
    private var error: Error?

    func set(data: Data?, status: Int?, error: Error?) {
        lock.lock()
        (self.data, self.status, self.error) = (data, status, error)
        lock.unlock()
    }

    func get() -> (Data?, Int?, Error?) {
        lock.lock()
        defer { lock.unlock() }
        return (data, status, error)
    }
}
