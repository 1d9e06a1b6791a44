import Foundation

/// Whether the user id a homeserver says logged in is the one that was typed, and whether two
/// sessions are on the same homeserver: a hostile server may answer any id, and the session kept
/// for that id would be replaced and its token sent to log it out.
enum LoginIdentity {
    /// `typed` as given to `--user`: a full id must be the returned one (letters in any case, as
    /// servers fold them); a bare localpart (`ann`, `@ann`) must be the returned id's localpart.
    static func matches(typed: String, returned: String) -> Bool {
        guard let colon = returned.firstIndex(of: ":"), returned.hasPrefix("@") else { return false }
        let returnedLocalpart = returned[returned.index(after: returned.startIndex)..<colon]
        if MatrixGrammar.isUserID(typed) {
            return typed.lowercased() == returned.lowercased()
        }
        let localpart = typed.hasPrefix("@") ? typed.dropFirst() : Substring(typed)
        return !localpart.contains(":") && localpart.lowercased() == returnedLocalpart.lowercased()
    }

    /// Whether two base URLs name the same homeserver (case of scheme and host, a trailing `/`).
    static func sameHomeserver(_ first: String, _ second: String) -> Bool {
        normalized(first) == normalized(second)
    }

    private static func normalized(_ base: String) -> String? {
        guard var components = URLComponents(string: base) else { return nil }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath.removeLast() }
        return components.string
    }
}
