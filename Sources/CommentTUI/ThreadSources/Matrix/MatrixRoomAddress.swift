import Foundation

/// A room named on the command line: `matrix:!id:server`, `matrix:#alias:server`, the `matrix:`
/// URI forms (`matrix:r/alias:server`, `matrix:roomid/id:server`) or a `https://matrix.to/#/…` link.
public struct MatrixRoomAddress: Equatable, Sendable, CustomStringConvertible {
    /// `!id:server` (`!id` from room version 12 on) or `#alias:server`.
    public var identifier: String

    /// Whether it names an alias (resolved through the directory) rather than a room id.
    public var isAlias: Bool { identifier.hasPrefix("#") }

    /// The server part after the first colon (for an alias, where it is published).
    public var server: String { identifier.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? "" }

    /// The servers a link names to join through (`?via=server`, repeatable), in its order, the
    /// first `viaLimit` of them.
    ///
    /// A server that is not in the room cannot join it by id alone: it needs one that is.
    public var via: [String] = []

    /// The root event of the post the locator names (`matrix:ROOM/$event`, `…/e/event`, a
    /// matrix.to link to the event); nil for the room's own feed.
    public var postRoot: String?
    /// Whether the event came in a permalink (a matrix.to link, a `matrix:` URI's `e/EVENT`),
    /// which may name any message: the opening asks the server whether it is a post's root, a
    /// reply in one (its post opens) or neither (the room opens). `matrix:ROOM/$EVENT` names a post.
    public var eventIsPermalink = false
    /// The message a permalink named that is no post's root (an ordinary message, a reply in a
    /// post), once resolved: the thread opens with it on screen and selected.
    public var linkedEvent: String?
    /// Why a permalink opens no message (it named a membership change, say), once resolved.
    public var linkedNote: String?

    /// How many of a link's servers are tried: each is a join attempt, and a link is anyone's
    /// text (Element's links name three).
    public static let viaLimit = 5

    /// Whether the address is on the server of `userID` (`@ann:example.org`): server names
    /// compare with the host's letter case ignored and the port, if any, equal (`[::1]:8448`).
    public func isOnServer(ofUser userID: String) -> Bool {
        server.lowercased() == Self.server(ofUser: userID).lowercased()
    }

    /// The server part of a user id.
    static func server(ofUser userID: String) -> String { String(userID.drop { $0 != ":" }.dropFirst()) }

    public var description: String { identifier }

    /// Reads a locator; nil when it is not a room (a file path), or names a post by a malformed
    /// event id (`problem(in:)` says which).
    public init?(locator: String) {
        guard case .success(let address)? = Self.read(locator) else { return nil }
        self = address
    }

    /// A room by its identifier alone (no link servers, no post).
    init(identifier: String, via: [String] = [], postRoot: String? = nil) {
        self.identifier = identifier
        self.via = via
        self.postRoot = postRoot
    }

    /// Why a locator that looks like a room is none, worded for the command line; nil when it reads.
    public static func problem(in locator: String) -> String? {
        if case .failure(let problem)? = read(locator) { return problem.message }
        return nil
    }

    /// A locator read: nil when it is no room at all, else the room (and post) or why not.
    static func read(_ locator: String) -> Result<MatrixRoomAddress, LocatorProblem>? {
        var rest: Substring
        var isURI = false
        if locator.hasPrefix("matrix:") {
            rest = locator.dropFirst("matrix:".count)
            if rest.hasPrefix("r/") { rest = "#" + rest.dropFirst(2); isURI = true }
            else if rest.hasPrefix("roomid/") { rest = "!" + rest.dropFirst(7); isURI = true }
        } else if let range = locator.range(of: "matrix.to/#/"), locator.hasPrefix("https://") || locator.hasPrefix("http://") {
            rest = locator[range.upperBound...]
        } else {
            return nil
        }
        // A link may carry `?via=` and an event after the room: the servers are where to join
        // it through, the event (if any) the post's root.
        var via: [String] = []
        if let cut = rest.firstIndex(where: { $0 == "?" }) {
            via = Self.servers(inQuery: rest[rest.index(after: cut)...])
            rest = rest[..<cut]
        }
        // Split before decoding: an event id of room version 3 may hold an encoded `/`.
        let segments = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let text = String(segments[0]).removingPercentEncoding ?? String(segments[0])
        guard let sigil = text.first, sigil == "!" || sigil == "#", text.count > 1,
              !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return nil }
        // An alias always names its server; a room id has none from room version 12 on.
        if let colon = text.firstIndex(of: ":") {
            guard colon > text.index(after: text.startIndex), text.index(after: colon) < text.endIndex else { return nil }
        } else if sigil == "#" {
            return nil
        }
        var root: String?
        if segments.count == 2, !segments[1].isEmpty {
            switch Self.postRoot(segments[1], isURI: isURI) {
            case .success(let event): root = event
            case .failure(let problem): return .failure(problem)
            }
        }
        var address = MatrixRoomAddress(identifier: text, via: via, postRoot: root)
        address.eventIsPermalink = root != nil && (isURI || !locator.hasPrefix("matrix:"))
        return .success(address)
    }

    /// The `via` values of a query, decoded, without duplicates or ones that could not be a server name.
    private static func servers(inQuery query: Substring) -> [String] {
        var servers: [String] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == "via" else { continue }
            let server = String(parts[1]).removingPercentEncoding ?? String(parts[1])
            guard !server.isEmpty, server.utf8.count <= 255, !servers.contains(server),
                  server.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || "0123456789.-:[]_".unicodeScalars.contains($0)) })
            else { continue }
            servers.append(server)
            if servers.count == viaLimit { break }
        }
        return servers
    }

    /// Whether a locator looks like a room at all (so a malformed one is an error, not a file name).
    public static func looksLikeRoom(_ locator: String) -> Bool {
        locator.hasPrefix("matrix:") || locator.contains("matrix.to/#/")
    }
}
