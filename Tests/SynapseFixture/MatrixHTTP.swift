import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Blocking HTTP over URLSession for tests: one request at a time per call, bounded by a timeout.
enum MatrixHTTP {
    /// One ephemeral session for every fixture request (no cookies, no cache).
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// The outcome of a dataTask, handed from URLSession's queue to the waiting thread.
    /// `@unchecked Sendable`: written once before `done` is signalled, read only after waiting on it.
    private final class Outcome: @unchecked Sendable {
        var status = 0
        var data = Data()
        var error: Error?
        let done = DispatchSemaphore(value: 0)
    }

    /// Sends `request` and waits at most its timeout plus 5 s; returns the status and body.
    static func perform(_ request: URLRequest) throws -> (status: Int, body: Data) {
        let outcome = Outcome()
        let task = session.dataTask(with: request) { data, response, error in
            outcome.data = data ?? Data()
            outcome.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            outcome.error = error
            outcome.done.signal()
        }
        task.resume()
        let what = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "?")"
        guard outcome.done.wait(timeout: .now() + request.timeoutInterval + 5) == .success else {
            task.cancel()
            throw SynapseFixtureError("\(what) failed: no answer within \(Int(request.timeoutInterval)) s")
        }
        if let error = outcome.error {
            throw SynapseFixtureError("\(what) failed: \(error.localizedDescription)")
        }
        return (outcome.status, outcome.data)
    }
}
