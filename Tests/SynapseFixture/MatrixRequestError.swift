import Foundation

/// A Matrix client-server API answer outside 2xx, with the spec's `errcode` and `error`.
public struct MatrixRequestError: Error, CustomStringConvertible, Sendable {
    /// The HTTP method and path that were requested.
    public let request: String
    /// The HTTP status code.
    public let status: Int
    /// The Matrix `errcode`, e.g. `M_FORBIDDEN`; empty when the body had none.
    public let errcode: String
    /// The Matrix `error` message; empty when the body had none.
    public let message: String

    /// A one-line summary for test failures.
    public var description: String {
        "\(request) -> HTTP \(status) \(errcode): \(message)"
    }
}
