import Foundation
import ThreadModel

/// One account's line to a homeserver: Client-Server API requests that block their caller.
///
/// Only the sync and send threads and the verbs call it, never the UI loop. A request can be
/// cancelled from another thread (`cancelAll()`), which is how a stopping source ends a long poll.
/// Every answer is read under a size limit and a deadline (`HTTPExchange`), and redirects are
/// not followed, so a request body (a password) or the token never goes where it was not sent.
public final class MatrixClient: @unchecked Sendable {
    /// The homeserver's base URL (`https://matrix.example.org`).
    public let homeserver: URL
    /// The access token, sent as a header and never shown.
    public let accessToken: String?
    /// With an application service's token: the user of its namespace the requests act as.
    public let assertedUser: String?
    private let cancellation = HTTPExchange.Cancellation()
    private let handles = HTTPExchange.HandlePool()
    private let lock = NSLock()
    private var received = 0

    /// Bytes of answers (bodies) received and kept so far, for the benchmark's figures.
    public var bytesReceived: Int { lock.withLock { received } }

    /// A client for `homeserver`, signed in when `accessToken` is given.
    public init(homeserver: URL, accessToken: String? = nil, assertedUser: String? = nil) {
        self.homeserver = homeserver
        self.accessToken = accessToken
        self.assertedUser = assertedUser
    }

    /// The same homeserver with another token (after logging in).
    public func signedIn(with token: String) -> MatrixClient { MatrixClient(homeserver: homeserver, accessToken: token) }

    /// Ends every request in flight (within about a second), and every later one at once, with `.cancelled`.
    public func cancelAll() { cancellation.cancel() }

    /// Sends a request under `/_matrix/client/v3` and returns the JSON answer.
    /// - Parameters:
    ///   - path: path components after the version, each percent-encoded here (room ids, aliases).
    ///   - timeout: seconds from sending to the answer's last byte before giving up (a long poll
    ///     asks for its own timeout plus a margin).
    ///   - limit: the most bytes of answer to read; past it the request fails (see MatrixAnswerLimit).
    @discardableResult
    public func request(_ method: String, _ path: [String], query: [String: String] = [:], body: JSONValue? = nil,
                        timeout: TimeInterval = 20, limit: Int = MatrixAnswerLimit.standard) throws -> JSONValue {
        var query = query
        if let assertedUser { query["user_id"] = assertedUser }
        let url = try url(path, query: query)
        var headers: [String] = []
        if let accessToken {
            // A token from an edited accounts file must not add header lines.
            guard MatrixGrammar.isAccessToken(accessToken) else {
                throw MatrixError(.malformed, "the saved access token is not a token (printable ASCII, at most \(MatrixGrammar.tokenLimit) characters); log in again")
            }
            headers.append("Authorization: Bearer \(accessToken)")
        }
        var bytes: Data?
        if let body {
            bytes = body.serialized()
        } else if method != "GET" {
            bytes = Data("{}".utf8)
        }
        if bytes != nil { headers.append("Content-Type: application/json") }
        let answered = try response(to: url, method: method, headers: headers, body: bytes, limit: limit, deadline: timeout)
        let (data, status, location) = (answered.body, answered.status, answered.location)
        if (300..<400).contains(status) {
            let target = location.map { " to \(VisibleText.escape(String($0.prefix(200))))" } ?? ""
            throw MatrixError(.server(status: status, errcode: nil), "homeserver \(homeserver.absoluteString) redirected\(target) (\(status)); not followed: give that address as the homeserver")
        }
        if JSONValue.holdsMoreValues(than: MatrixAnswerLimit.values, in: data) {
            throw MatrixError(.malformed, """
                homeserver \(homeserver.absoluteString) sent more than \(MatrixAnswerLimit.values) JSON values in answer to \
                \(MatrixAnswerLimit.requestName(url.path)); not reading it
                """)
        }
        let json = try? JSONValue(parsing: data)
        guard (200..<300).contains(status) else { throw Self.serverError(status: status, json: json, retryAfter: answered.retryAfter) }
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
        // A path may start with its API version (`v1` for endpoints that never were v3, `unstable`
        // for a proposal's); else v3.
        let isVersioned = path.first.map { $0 == "unstable" || $0.hasPrefix("v") && Int($0.dropFirst()) != nil } ?? false
        components.percentEncodedPath = base + prefix + (isVersioned ? "/" : "/v3/") + encoded.joined(separator: "/")
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

    /// Runs one request: the answer's body (at most `limit` bytes), status and redirect target,
    /// within `deadline` seconds from start to the body's last byte.
    func exchange(_ url: URL, method: String = "GET", headers: [String] = [], body: Data? = nil, limit: Int,
                  deadline: TimeInterval) throws -> (Data, Int, String?) {
        let answered = try response(to: url, method: method, headers: headers, body: body, limit: limit, deadline: deadline)
        return (answered.body, answered.status, answered.location)
    }

    /// Runs one request as `exchange` does and returns the whole response.
    func response(to url: URL, method: String, headers: [String], body: Data?, limit: Int, deadline: TimeInterval) throws -> HTTPExchange.Response {
        // No 100-continue round trip for big bodies: the answer is awaited anyway.
        let request = HTTPExchange.Request(url: url.absoluteString, method: method, headers: headers + ["Expect:"],
                                           body: body.map { Array($0) }, limit: limit, deadline: deadline)
        do {
            let response = try HTTPExchange.perform(request, cancellation: cancellation, handles: handles)
            lock.withLock { received += response.body.count }
            return response
        } catch let failure as HTTPExchange.Failure {
            throw MatrixTransportFailure.describe(failure, server: homeserver.absoluteString, request: MatrixAnswerLimit.requestName(url.path),
                                                  limit: limit, deadline: deadline)
        }
    }

    /// The Matrix error in an error answer, worded for the status bar and the verbs; the wait a
    /// 429 asks for comes from its `Retry-After` header or its body, clamped (MatrixServerNumber).
    static func serverError(status: Int, json: JSONValue?, retryAfter header: String? = nil) -> MatrixError {
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
        if status == 429 || code == "M_LIMIT_EXCEEDED" {
            error.retryAfter = MatrixServerNumber.retryWait(header: header, milliseconds: json?["retry_after_ms"])
        }
        return error
    }
}
