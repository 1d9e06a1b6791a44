import Foundation
import ThreadModel

/// Where a person's homeserver is, from what they typed at login (`example.org`,
/// `https://matrix.example.org`, `127.0.0.1:8008`): the server name's
/// `/.well-known/matrix/client`, then `/_matrix/client/versions` to confirm a homeserver answers.
///
/// Every step has a short deadline, so a black hole or a wrong scheme fails in seconds, and a
/// failure says what to type instead when it can tell (http for https, or the reverse).
enum MatrixDiscovery {
    /// Seconds each step may take: a homeserver answers these at once.
    static let stepDeadline: TimeInterval = 6

    /// The longest address taken: a homeserver's is a few dozen characters.
    static let addressLimit = 2048
    /// The most redirects followed to a `.well-known` (a site moved to `www.`, say).
    static let redirectLimit = 3

    /// The homeserver's base URL for `typed`; a URL without a scheme means https.
    static func homeserver(typed: String, deadline: TimeInterval = stepDeadline) throws -> URL {
        let given = try url(typed)
        var base = given
        if given.path.isEmpty || given.path == "/" {
            switch try wellKnown(at: given, deadline: deadline) {
            case .none:
                break
            case .named(let named):
                base = named
            case .unusable(let place, let problem):
                // Many sites answer every path with a page; the spec says stop, but an address
                // that is a homeserver itself is what was meant.
                do {
                    try confirm(given, deadline: deadline)
                } catch is MatrixError {
                    throw MatrixError(.malformed, """
                        \(place) \(problem), and \(origin(given)) is not a Matrix homeserver itself; \
                        give the homeserver's address with --homeserver
                        """)
                }
                return given
            }
        }
        try confirm(base, deadline: deadline)
        return base
    }

    /// A URL from what was typed: `http(s)://…` as given, anything else with https in front.
    static func url(_ typed: String) throws -> URL {
        guard typed.utf8.count <= addressLimit else {
            throw MatrixError(.malformed, "not a homeserver URL: longer than \(addressLimit) characters")
        }
        let full = typed.contains("://") ? typed : "https://" + typed
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw MatrixError(.malformed, "not a homeserver URL: \(VisibleText.escape(typed))")
        }
        // Never shown or sent as Basic auth: a password typed there belongs in the prompt.
        guard url.user == nil, url.password == nil else {
            throw MatrixError(.malformed, "a homeserver address carries no user name or password; give the user with --user")
        }
        return url
    }

    /// `https://example.org` without a trailing slash, for messages and paths.
    private static func origin(_ url: URL) -> String {
        let text = url.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// What a site's `.well-known/matrix/client` says.
    private enum WellKnown {
        /// There is none (404): the address is the homeserver's, or nothing.
        case none
        /// It names this base URL.
        case named(URL)
        /// It answered, but not usably: `problem` says how (`answered 500`, `is not JSON`).
        case unusable(place: String, problem: String)
    }

    /// Reads `.well-known/matrix/client`, following up to `redirectLimit` redirects (the GET
    /// carries no credentials) to https, or to http on this machine.
    private static func wellKnown(at server: URL, deadline: TimeInterval) throws -> WellKnown {
        let client = MatrixClient(homeserver: server)
        let first = origin(server) + "/.well-known/matrix/client"
        guard var target = URL(string: first) else { throw MatrixError(.malformed, "not a homeserver URL: \(origin(server))") }
        var redirects = 0
        while true {
            let (body, status, location) = try fetch(client, url: target, deadline: deadline)
            let place = target.absoluteString
            if (300..<400).contains(status), let location {
                guard redirects < redirectLimit else {
                    throw MatrixError(.malformed, "\(first) redirected more than \(redirectLimit) times; give the homeserver's address with --homeserver")
                }
                guard let next = URL(string: location, relativeTo: target)?.absoluteURL, next.user == nil, next.password == nil,
                      next.scheme?.lowercased() == "https" || (next.scheme?.lowercased() == "http" && isLoopback(next)) else {
                    throw MatrixError(.malformed, """
                        \(place) redirected to \(VisibleText.escape(String(location.prefix(200)))), which is not an https address; \
                        give the homeserver's address with --homeserver
                        """)
                }
                redirects += 1
                target = next
                continue
            }
            if status == 404 { return .none }
            guard status == 200 else { return .unusable(place: place, problem: "answered \(status)") }
            guard let json = try? JSONValue(parsing: body), json.object != nil else { return .unusable(place: place, problem: "is not JSON") }
            guard let named = json["m.homeserver"]?["base_url"]?.string else {
                throw MatrixError(.malformed, "\(place) names no homeserver (m.homeserver.base_url)")
            }
            let trimmed = named.hasSuffix("/") ? String(named.dropLast()) : named
            guard named.contains("://"), let base = try? url(trimmed) else {
                throw MatrixError(.malformed, "\(place) names \(VisibleText.escape(String(named.prefix(200)))), which is not a homeserver URL")
            }
            try checkScheme(of: base, namedBy: target)
            return .named(base)
        }
    }

    /// Refuses an http homeserver named by an https site (a downgrade that would send the
    /// password in the clear), except on this machine, where nothing crosses a network.
    static func checkScheme(of base: URL, namedBy wellKnown: URL) throws {
        guard wellKnown.scheme?.lowercased() == "https", base.scheme?.lowercased() == "http", !isLoopback(base) else { return }
        throw MatrixError(.malformed, """
            \(wellKnown.absoluteString) names \(VisibleText.escape(base.absoluteString)), which is not https: the password would cross \
            the network unencrypted; not logging in
            """)
    }

    /// `localhost`, `127.0.0.0/8` or `::1`.
    static func isLoopback(_ url: URL) -> Bool {
        guard var host = url.host?.lowercased() else { return false }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Checks that a homeserver answers at `base`.
    private static func confirm(_ base: URL, deadline: TimeInterval) throws {
        let client = MatrixClient(homeserver: base)
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
        // The path as sent (`a%20b`), which is what percentEncodedPath takes.
        let path = components?.percentEncodedPath ?? ""
        components?.percentEncodedPath = (path.hasSuffix("/") ? String(path.dropLast()) : path) + "/_matrix/client/versions"
        guard let url = components?.url else { throw MatrixError(.malformed, "not a homeserver URL: \(base.absoluteString)") }
        let (body, status, _) = try fetch(client, url: url, deadline: deadline)
        guard status == 200, (try? JSONValue(parsing: body))?["versions"]?.array != nil else {
            throw MatrixError(.malformed, "\(base.absoluteString) is not a Matrix homeserver (/_matrix/client/versions answered \(status))")
        }
    }

    /// One GET under the small limit; a transport failure that suggests the other scheme says so.
    private static func fetch(_ client: MatrixClient, url: URL, deadline: TimeInterval) throws -> (Data, Int, String?) {
        let server = client.homeserver
        do {
            return try client.exchange(url, limit: MatrixAnswerLimit.small, deadline: deadline)
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
