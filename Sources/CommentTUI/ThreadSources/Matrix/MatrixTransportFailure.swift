import Foundation

/// What failed below HTTP when a homeserver could not be talked to, told apart so the message
/// names it: a certificate that is not trusted is not "unreachable".
enum MatrixTransportFailure: Sendable, Equatable {
    /// The TLS handshake happened and the certificate was refused.
    case certificate
    /// TLS could not be set up at all (often: the server speaks plain http).
    case handshake
    /// The connection was made and then closed or reset without an answer (often: plain http
    /// sent to a TLS port).
    case connectionLost
    /// Refused, no route, no such host.
    case unreachable
    /// The deadline passed before the whole answer came (a black hole, a hanging server, a TLS
    /// hello sent to a plain http server, which waits for a request line).
    case noAnswer

    /// An exchange's failure worded for the person at the terminal, naming `server` and the call.
    static func describe(_ failure: HTTPExchange.Failure, server: String, request: String, limit: Int, deadline: TimeInterval) -> MatrixError {
        var error: MatrixError
        switch failure {
        case .cancelled:
            return MatrixError(.cancelled, "stopped")
        case .overLimit:
            return MatrixError(.malformed, "homeserver \(server) sent more than \(MatrixAnswerLimit.describe(limit)) in answer to \(request); stopped reading it")
        case .headersOverLimit:
            return MatrixError(.malformed, """
                homeserver \(server) sent more than \(MatrixAnswerLimit.describe(HTTPExchange.headerLimit)) of headers in answer to \
                \(request); stopped reading it
                """)
        case .deadline:
            error = MatrixError(.unreachable, "homeserver \(server) did not answer \(request) within \(MatrixAnswerLimit.describe(seconds: deadline))")
            error.transport = .noAnswer
            error.timedOut = true
        case .certificate(let detail):
            error = MatrixError(.tls, "the TLS certificate of \(server) is not trusted" + quoted(detail) + "; not connecting")
            error.transport = .certificate
        case .handshake(let detail):
            error = MatrixError(.tls, "could not set up TLS with \(server)" + quoted(detail))
            error.transport = .handshake
        case .connectionLost:
            error = MatrixError(.unreachable, "homeserver \(server) closed the connection without an answer")
            error.transport = .connectionLost
        case .unreachable:
            error = MatrixError(.unreachable, "homeserver \(server) is unreachable")
            error.transport = .unreachable
        }
        return error
    }

    /// libcurl's own words, when it gave some: ` (SSL certificate problem: self-signed certificate)`.
    private static func quoted(_ detail: String) -> String {
        detail.isEmpty ? "" : " (\(VisibleText.escape(String(detail.prefix(200)))))"
    }
}
