import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

    /// The error worded for the person at the terminal, naming `server`.
    static func describe(_ error: Error, server: String) -> MatrixError {
        let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code)
        // Foundation on Linux passes libcurl's own text ("SSL certificate problem: self-signed
        // certificate") with code -1 (unknown): it is the only place the cause is told.
        let detail = VisibleText.escape(String(((error as NSError).userInfo[NSLocalizedDescriptionKey] as? String ?? "").prefix(200)))
        let lowered = detail.lowercased()
        var failure: MatrixError
        switch code {
        case .cancelled:
            return MatrixError(.cancelled, "stopped")
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot:
            failure = certificate(server, detail: detail)
        case _ where lowered.contains("certificate"):
            failure = certificate(server, detail: detail)
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired:
            failure = MatrixError(.tls, "could not set up TLS with \(server)" + (detail.isEmpty ? "" : " (\(detail))"))
            failure.transport = .handshake
        case _ where lowered.contains("ssl") || lowered.contains("tls"):
            failure = MatrixError(.tls, "could not set up TLS with \(server) (\(detail))")
            failure.transport = .handshake
        case .timedOut:
            failure = MatrixError(.unreachable, "homeserver \(server) did not answer in time")
        case .networkConnectionLost, .badServerResponse, .zeroByteResource, .cannotParseResponse:
            failure = MatrixError(.unreachable, "homeserver \(server) closed the connection without an answer")
            failure.transport = .connectionLost
        default:
            failure = MatrixError(.unreachable, "homeserver \(server) is unreachable")
            failure.transport = .unreachable
        }
        return failure
    }

    private static func certificate(_ server: String, detail: String) -> MatrixError {
        var failure = MatrixError(.tls, "the TLS certificate of \(server) is not trusted" + (detail.isEmpty ? "" : " (\(detail))")
            + "; not connecting")
        failure.transport = .certificate
        return failure
    }
}
