import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answers in flight on one URLSession, each read under a size limit, with redirects
/// refused unless asked for.
///
/// A homeserver is hostile input: an endless or huge body stops being read at the limit (an
/// announced `Content-Length` over it is refused before a byte of the body), so the client never
/// holds more than the limit of one answer. A redirect is not followed, so a request body (a
/// password) or the token never goes to an address the person did not name.
final class MatrixTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// One request's answer as it arrives.
    final class Transfer: @unchecked Sendable {
        let limit: Int
        let followsRedirects: Bool
        /// Signalled once the task has ended, however it ended.
        let finished = DispatchSemaphore(value: 0)
        fileprivate(set) var body = Data()
        fileprivate(set) var response: HTTPURLResponse?
        fileprivate(set) var error: Error?
        /// Set when the answer was (or announced it would be) larger than `limit`.
        fileprivate(set) var isOverLimit = false

        init(limit: Int, followsRedirects: Bool) {
            self.limit = limit
            self.followsRedirects = followsRedirects
        }
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    private var buffered = 0

    /// Bytes of bodies kept so far, over all transfers (for the benchmark and the tests).
    var bytesBuffered: Int { lock.withLock { buffered } }

    /// Starts following `task`'s answer into `transfer`.
    func follow(_ task: URLSessionTask, into transfer: Transfer) {
        lock.withLock { transfers[task.taskIdentifier] = transfer }
    }

    /// What the transfer holds, read under the lock that the delegate writes under.
    func outcome(of transfer: Transfer) -> (body: Data, response: HTTPURLResponse?, error: Error?, overLimit: Bool) {
        lock.withLock { (transfer.body, transfer.response, transfer.error, transfer.isOverLimit) }
    }

    private func transfer(of task: URLSessionTask) -> Transfer? {
        lock.withLock { transfers[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(of: dataTask) else { return completionHandler(.cancel) }
        let announced = response.expectedContentLength
        let refused = lock.withLock { () -> Bool in
            transfer.response = response as? HTTPURLResponse
            transfer.isOverLimit = announced > Int64(transfer.limit)
            return transfer.isOverLimit
        }
        completionHandler(refused ? .cancel : .allow)
        if refused { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(of: dataTask) else { return dataTask.cancel() }
        let over = lock.withLock { () -> Bool in
            guard !transfer.isOverLimit else { return true }
            guard transfer.body.count + data.count <= transfer.limit else {
                transfer.isOverLimit = true
                return true
            }
            transfer.body.append(data)
            buffered += data.count
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // nil: the redirect itself is the answer, and the caller says where it pointed.
        completionHandler(transfer(of: task)?.followsRedirects == true ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let transfer = lock.withLock { () -> Transfer? in
            let transfer = transfers.removeValue(forKey: task.taskIdentifier)
            transfer?.error = error
            if transfer?.response == nil { transfer?.response = task.response as? HTTPURLResponse }
            return transfer
        }
        transfer?.finished.signal()
    }
}
