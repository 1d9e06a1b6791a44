import Foundation
import ThreadModel

/// A room's members as thread users: Matrix user ids, display names, and handles derived per
/// room from localparts (`marco`; `marco.example.org` when two servers both have a marco).
struct MatrixMembers: Sendable {
    /// Display names by user id (nil: none set); every user ever seen, joined or not.
    private(set) var names: [String: String?] = [:]
    /// Handles by user id, recomputed when members change.
    private(set) var handles: [String: String] = [:]
    /// The reader's server: its users keep the bare localpart when another server has the same.
    let homeServer: String

    init(me: String) { homeServer = Self.server(of: me) }

    /// Adds or renames members; returns the users whose name or handle changed.
    @discardableResult
    mutating func update(_ changes: [String: String?]) -> [User] {
        let before = users
        for (id, name) in changes where Self.isUserID(id) { names[id] = .some(name.flatMap { $0.isEmpty ? nil : $0 }) }
        deriveHandles()
        let old = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return users.filter { old[$0.id] != $0 }
    }

    /// Every member as a user, in id order.
    var users: [User] { names.keys.sorted().map(user(id:)) }

    /// The user for an id (a stranger gets a handle from the localpart alone).
    func user(id: String) -> User {
        User(id: id, handle: handles[id] ?? Self.handleBase(Self.localpart(of: id)), name: name(of: id))
    }

    /// The display name, or the localpart when none is set.
    func name(of id: String) -> String {
        (names[id] ?? nil) ?? Self.localpart(of: id)
    }

    /// The user id with a handle (case-insensitive).
    func userID(handle: String) -> String? {
        let lowered = handle.lowercased()
        return handles.first { $0.value.lowercased() == lowered }?.key
    }

    private mutating func deriveHandles() {
        var byBase: [String: [String]] = [:]
        for id in names.keys { byBase[Self.handleBase(Self.localpart(of: id)), default: []].append(id) }
        var result: [String: String] = [:]
        for (base, ids) in byBase {
            if ids.count == 1 { result[ids[0]] = base; continue }
            // Several servers share a localpart: the reader's own server keeps it bare (if only one
            // user there has it), the others are qualified by their server.
            let local = ids.filter { Self.server(of: $0) == homeServer }
            for id in ids.sorted() {
                if local.count == 1, local[0] == id { result[id] = base; continue }
                var handle = Self.clip(base + "." + Self.handleBase(Self.server(of: id)))
                var n = 2
                while result.values.contains(handle) { handle = Self.clip(base + "." + Self.handleBase(Self.server(of: id))) + "-\(n)"; n += 1 }
                result[id] = handle
            }
        }
        handles = result
    }

    /// `@marco:example.org` → `marco`.
    static func localpart(of id: String) -> String {
        let body = id.hasPrefix("@") ? id.dropFirst() : Substring(id)
        return String(body.split(separator: ":", maxSplits: 1).first ?? body)
    }

    /// `@marco:example.org` → `example.org`.
    static func server(of id: String) -> String {
        id.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
    }

    /// Whether a string is shaped like a Matrix user id.
    static func isUserID(_ id: String) -> Bool { id.hasPrefix("@") && id.contains(":") && id.count > 3 }

    /// A handle from free text: characters outside `[A-Za-z0-9_.-]` become `_`, at most 39 long.
    static func handleBase(_ text: String) -> String {
        let mapped = Handle.replacingInvalidCharacters(in: text)
        return mapped.isEmpty ? "_" : clip(mapped)
    }

    private static func clip(_ handle: String) -> String { String(handle.prefix(35)) }
}
