import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ScriptedHomeserver.Answer {
    /// What `upstream` (a real homeserver) answers `request`, asked when called: a scripted
    /// server in front of Synapse misbehaves on the requests a test picks and passes the rest on,
    /// so the protocol stays Synapse's. Long polls wait as long as Synapse does (at most 2 min).
    ///
    /// JSON answers only (Synapse writes them in ASCII): the body is relayed as text, after
    /// `editing` (a test's change to what Synapse said).
    public static func forwarded(_ request: ScriptedHomeserver.Request, to upstream: URL,
                                 editing: (String) -> String = { $0 }) -> Self {
        var components = URLComponents(url: upstream, resolvingAgainstBaseURL: false)!
        let query = request.target.drop { $0 != "?" }.dropFirst()
        components.percentEncodedPath = request.path
        components.percentEncodedQuery = query.isEmpty ? nil : String(query)
        var forwarded = URLRequest(url: components.url!)
        forwarded.httpMethod = request.method
        forwarded.timeoutInterval = 120
        for name in ["authorization", "content-type"] {
            if let value = request.headers[name] { forwarded.setValue(value, forHTTPHeaderField: name) }
        }
        if !request.body.isEmpty { forwarded.httpBody = request.body }
        guard let answer = try? MatrixHTTP.perform(forwarded) else { return .json("{\"errcode\":\"M_UNKNOWN\",\"error\":\"upstream failed\"}", status: 502) }
        return .json(editing(String(decoding: answer.body, as: UTF8.self)), status: answer.status)
    }
}
