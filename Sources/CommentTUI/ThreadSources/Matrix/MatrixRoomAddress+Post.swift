import Foundation

/// The post part of a room locator: the event after the room, which is the post's root.
extension MatrixRoomAddress {
    /// Why a locator naming a room is not one.
    struct LocatorProblem: Error, Equatable {
        var message: String
    }

    /// The spec's bound on an event id, in bytes.
    static let eventIDLimit = 255

    /// The event a locator names after its room: `$event` (a `matrix:ROOM/$event` locator or a
    /// matrix.to link), `e/event` in the `matrix:` URI form (which drops the sigil).
    static func postRoot(_ segment: Substring, isURI: Bool) -> Result<String, LocatorProblem> {
        var raw = segment
        while raw.hasSuffix("/") { raw = raw.dropLast() }
        if isURI {
            guard raw.hasPrefix("e/") else {
                return .failure(LocatorProblem(message: "a matrix: URI names an event after its room as e/EVENT"))
            }
            raw = "$" + raw.dropFirst(2)
        }
        let decoded = String(raw).removingPercentEncoding ?? String(raw)
        guard isEventID(decoded) else {
            return .failure(LocatorProblem(message: "'\(VisibleText.escape(decoded))' after the room is not an event id "
                + "(a post is named matrix:ROOM/$EVENT)"))
        }
        return .success(decoded)
    }

    /// An event id: `$` and 1 to 254 printable ASCII characters (room versions 1 and 2 add
    /// `:server`; later ones are base64 that may hold `+` and `/`).
    static func isEventID(_ id: String) -> Bool {
        let bytes = id.utf8
        return bytes.first == UInt8(ascii: "$") && (2...eventIDLimit).contains(bytes.count)
            && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The locator of the room, or of the post in it: `matrix:ROOM` or `matrix:ROOM/$event`.
    public var locator: String { "matrix:" + identifier + (postRoot.map { "/" + $0 } ?? "") }
}
