import Foundation

/// Why a request to a homeserver failed, worded for the person at the terminal.
///
/// Never carries the access token: requests send it in a header, and neither headers nor
/// bodies are quoted here.
public struct MatrixError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is, which decides whether to retry.
    public enum Kind: Sendable, Equatable {
        /// The homeserver could not be reached (refused, timed out, DNS).
        case unreachable
        /// The TLS handshake failed (an untrusted or wrong certificate).
        case tls
        /// The server answered with an error status and, usually, a Matrix `errcode`.
        case server(status: Int, errcode: String?)
        /// The answer was not the JSON the API promises.
        case malformed
        /// The request was cancelled because the source stopped.
        case cancelled
    }

    public var kind: Kind
    /// A short explanation, already safe to show.
    public var message: String
    /// How long the server asked us to wait before trying again (HTTP 429), in seconds.
    public var retryAfter: Double?
    /// The server took the request and gave no answer in time (not: could not be reached).
    public var timedOut = false
    /// What went wrong below HTTP, when that is what failed (login words its advice by it).
    var transport: MatrixTransportFailure?

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The Matrix error code, if the server gave one.
    public var errcode: String? { if case .server(_, let code) = kind { code } else { nil } }
    /// The HTTP status, if the server answered.
    public var status: Int? { if case .server(let status, _) = kind { status } else { nil } }

    /// Whether the server took the request and gave nothing usable back (no answer in time, or
    /// not the answer the API promises): trying again may help, but not forever.
    public var isUnanswered: Bool { timedOut || kind == .malformed }

    /// Whether trying again later may succeed: the network, rate limits and server trouble.
    public var isTransient: Bool {
        switch kind {
        case .unreachable, .malformed: true
        case .server(let status, let code): status == 429 || status >= 500 || code == "M_LIMIT_EXCEEDED"
        case .tls, .cancelled: false
        }
    }
}
