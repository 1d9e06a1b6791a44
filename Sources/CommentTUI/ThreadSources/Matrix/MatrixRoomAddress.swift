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
        // A link may carry `?via=` and an event after the room: only the room is the thread.
        if let cut = rest.firstIndex(where: { $0 == "?" }) { rest = rest[..<cut] }
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

    /// Whether a locator looks like a room at all (so a malformed one is an error, not a file name).
    public static func looksLikeRoom(_ locator: String) -> Bool {
        locator.hasPrefix("matrix:") || locator.contains("matrix.to/#/")
    }
}
