import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MatrixTestClient {
    /// Sends a room event whose content is `json` as written, byte for byte: what another client
    /// may send that `JSONSerialization` would never write (a lone surrogate escape, `\ud800`).
    /// Returns the status and the answer's body as text.
    public func sendRaw(roomID: String, json: String, type: String = "m.room.message", txnID: String = UUID().uuidString) throws
        -> (status: Int, body: String) {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = "/_matrix/client/v3/rooms/\(Self.escape(roomID))/send/\(Self.escape(type))/\(Self.escape(txnID))"
        var request = URLRequest(url: components.url!)
        request.httpMethod = "PUT"
        request.timeoutInterval = timeout
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let answer = try MatrixHTTP.perform(request)
        return (answer.status, String(decoding: answer.body, as: UTF8.self))
    }
}
