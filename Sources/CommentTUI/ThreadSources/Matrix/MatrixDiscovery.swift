import Foundation

/// Where a person's homeserver is, from what they typed at login (`example.org`,
/// `https://matrix.example.org`, `127.0.0.1:8008`): the server name's
/// `/.well-known/matrix/client`, then `/_matrix/client/versions` to confirm a homeserver answers.
///
/// Every step has a short deadline, so a black hole or a wrong scheme fails in seconds, and a
/// failure says what to type instead when it can tell (http for https, or the reverse).
enum MatrixDiscovery {
    /// Seconds each step may take: a homeserver answers these at once.
    static let stepDeadline: TimeInterval = 6

    /// The homeserver's base URL for `typed`; a URL without a scheme means https.
    static func homeserver(typed: String, deadline: TimeInterval = stepDeadline) throws -> URL {
        let given = try url(typed)
        var base = given
        if given.path.isEmpty || given.path == "/" {
            base = try wellKnown(at: given, deadline: deadline) ?? given
        }
        try confirm(base, deadline: deadline)
        return base
    }

    /// A URL from what was typed: `http(s)://…` as given, anything else with https in front.
    static func url(_ typed: String) throws -> URL {
        let full = typed.contains("://") ? typed : "https://" + typed
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw MatrixError(.malformed, "not a homeserver URL: \(VisibleText.escape(typed))")
        }
        return url
    }

    /// The base URL `.well-known/matrix/client` names, or nil when there is none (404, or not
    /// JSON: many sites answer every path with a page).
    private static func wellKnown(at server: URL, deadline: TimeInterval) throws -> URL? {
        let client = MatrixClient(homeserver: server)
        let (body, status) = try fetch(client, path: "/.well-known/matrix/client", deadline: deadline)
        guard status == 200, let json = try? JSONValue(parsing: body), json.object != nil else { return nil }
        let place = "\(server.absoluteString)/.well-known/matrix/client"
        guard let named = json["m.homeserver"]?["base_url"]?.string else {
            throw MatrixError(.malformed, "\(place) names no homeserver (m.homeserver.base_url)")
        }
        let trimmed = named.hasSuffix("/") ? String(named.dropLast()) : named
        guard named.contains("://"), let base = try? url(trimmed) else {
            throw MatrixError(.malformed, "\(place) names \(VisibleText.escape(String(named.prefix(200)))), which is not a homeserver URL")
        }
        return base
    }

    /// Checks that a homeserver answers at `base`.
    private static func confirm(_ base: URL, deadline: TimeInterval) throws {
        let client = MatrixClient(homeserver: base)
        let (body, status) = try fetch(client, path: "/_matrix/client/versions", deadline: deadline)
        guard status == 200, (try? JSONValue(parsing: body))?["versions"]?.array != nil else {
            throw MatrixError(.malformed, "\(base.absoluteString) is not a Matrix homeserver (/_matrix/client/versions answered \(status))")
        }
    }

    /// One GET under the small limit; a transport failure that suggests the other scheme says so.
    private static func fetch(_ client: MatrixClient, path: String, deadline: TimeInterval) throws -> (Data, Int) {
        let server = client.homeserver
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)
        components?.percentEncodedPath = (server.path.hasSuffix("/") ? String(server.path.dropLast()) : server.path) + path
        guard let url = components?.url else { throw MatrixError(.malformed, "not a homeserver URL: \(server.absoluteString)") }
        do {
            let (body, status, _) = try client.exchange(url, limit: MatrixAnswerLimit.small, deadline: deadline)
            return (body, status)
        } catch var error as MatrixError {
            if let other = otherScheme(for: server, after: error) {
                error.message += "; it speaks \(other.scheme ?? ""): log in with --homeserver \(other.absoluteString)"
            }
            throw error
        }
    }

    /// The same server under the other scheme, when a TLS failure or silence on https (or a
    /// dropped connection on http) is explained by the server answering that scheme instead.
    private static func otherScheme(for server: URL, after error: MatrixError) -> URL? {
        let https = server.scheme?.lowercased() == "https"
        let hint: Set<MatrixTransportFailure?> = https ? [.handshake, .noAnswer] : [.connectionLost]
        guard hint.contains(error.transport),
              var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else { return nil }
        components.scheme = https ? "http" : "https"
        if components.port == nil { components.port = https ? 443 : 80 }
        guard let other = components.url else { return nil }
        do {
            _ = try MatrixClient(homeserver: other).exchange(other.appendingPathComponent("_matrix/client/versions"),
                                                             limit: MatrixAnswerLimit.small, deadline: 3)
            return other
        } catch let failure as MatrixError where failure.transport == .certificate {
            // A TLS handshake happened: it does speak https (with a certificate of its own to sort out).
            return other
        } catch {
            return nil
        }
    }
}
