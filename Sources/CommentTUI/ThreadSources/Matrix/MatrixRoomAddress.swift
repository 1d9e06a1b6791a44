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

    /// The servers a link names to join through (`?via=server`, repeatable), in its order.
    ///
    /// A server that is not in the room cannot join it by id alone: it needs one that is.
    public var via: [String] = []

    public var description: String { identifier }

    /// Reads a locator; nil when it is not a room (a file path).
    public init?(locator: String) {
        var rest: Substring
        if locator.hasPrefix("matrix:") {
            rest = locator.dropFirst("matrix:".count)
            if rest.hasPrefix("r/") { rest = "#" + rest.dropFirst(2) }
            else if rest.hasPrefix("roomid/") { rest = "!" + rest.dropFirst(7) }
        } else if let range = locator.range(of: "matrix.to/#/"), locator.hasPrefix("https://") || locator.hasPrefix("http://") {
            rest = locator[range.upperBound...]
        } else {
            return nil
        }
        // A link may carry `?via=` and an event after the room: only the room is the thread,
        // the servers are where to join it through.
        if let cut = rest.firstIndex(where: { $0 == "?" }) {
            via = Self.servers(inQuery: rest[rest.index(after: cut)...])
            rest = rest[..<cut]
        }
        var text = String(rest).removingPercentEncoding ?? String(rest)
        if let slash = text.firstIndex(of: "/") { text = String(text[..<slash]) }
        guard let sigil = text.first, sigil == "!" || sigil == "#", text.count > 1,
              !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else { return nil }
        // An alias always names its server; a room id has none from room version 12 on.
        if let colon = text.firstIndex(of: ":") {
            guard colon > text.index(after: text.startIndex), text.index(after: colon) < text.endIndex else { return nil }
        } else if sigil == "#" {
            return nil
        }
        identifier = text
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
        }
        return servers
    }

    /// Whether a locator looks like a room at all (so a malformed one is an error, not a file name).
    public static func looksLikeRoom(_ locator: String) -> Bool {
        locator.hasPrefix("matrix:") || locator.contains("matrix.to/#/")
    }
}
