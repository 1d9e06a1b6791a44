import Foundation
import ThreadModel

/// A room's members as thread users: Matrix user ids, display names, and handles derived per
/// room from localparts (`marco`; `marco.example.org` when two servers both have a marco).
///
/// Kept incrementally: a member event costs the handles sharing its localpart's (its group),
/// never the whole room's again, so a member storm in a big room stays cheap (issue 36).
struct MatrixMembers: Sendable {
    /// Display names by user id (nil: none set); every user ever seen, joined or not.
    private(set) var names: [String: String?] = [:]
    /// Handles by user id, kept as members come.
    private(set) var handles: [String: String] = [:]
    /// The reader's server: its users keep the bare localpart when another server has the same.
    let homeServer: String
    /// Members by handle base (their localpart as a handle), each group in id order: only a
    /// group's handles depend on one another.
    private var groups: [String: [String]] = [:]
    /// User ids by lowercased handle.
    private var owners: [String: String] = [:]
    /// Handles tried while assigning them, ever: the work member changes cost.
    private(set) var handlesTried = 0

    /// The reader's user id (their reactions are marked).
    let me: String

    init(me: String) {
        self.me = me
        homeServer = Self.server(of: me)
    }

    /// Adds or renames members; returns the users whose name or handle changed, in id order.
    /// `held`: handles new members had before (the offline copy's), kept where still free.
    @discardableResult
    mutating func update(_ changes: [String: String?], held: [String: String] = [:]) -> [User] {
        var changed: Set<String> = []
        var touched: Set<String> = []
        for (id, name) in changes where Self.isUserID(id) {
            let name = name.flatMap { $0.isEmpty ? nil : $0 }
            if let known = names[id] {
                if known != name { names[id] = .some(name); changed.insert(id) }
                continue
            }
            names[id] = .some(name)
            if let handle = held[id], Handle.isValid(handle), owners[handle.lowercased()] == nil {
                // Claimed before any group is assigned: no other group's joiner takes it.
                handles[id] = handle
                owners[handle.lowercased()] = id
            }
            // Grouped ignoring case: handles are compared so (`@Marco` and `@marco` clash).
            let group = Self.handleBase(Self.localpart(of: id)).lowercased()
            groups[group, default: []].insertSorted(id)
            touched.insert(group)
        }
        for group in touched.sorted() { changed.formUnion(assignHandles(ofGroup: group)) }
        return changed.sorted().map(user(id:))
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
    func userID(handle: String) -> String? { owners[handle.lowercased()] }

    /// Assigns the handles of one group again; returns the ids whose handle changed.
    ///
    /// Alone, a member has the bare base. Several servers sharing it: the reader's own server
    /// keeps it bare (if only one user there has it), the others are qualified by their server,
    /// numbered where that is not enough. A handle held stays with its holder while it is still
    /// of that form and free, so a joiner never takes one (an @mention keeps its person); the
    /// joiners get the next numbers.
    private mutating func assignHandles(ofGroup group: String) -> [String] {
        guard let ids = groups[group] else { return [] }
        for id in ids {
            if let old = handles[id], owners[old.lowercased()] == id { owners[old.lowercased()] = nil }
        }
        var assigned: [String: String] = [:]
        var taken: Set<String> = []
        func give(_ handle: String, to id: String) {
            assigned[id] = handle
            taken.insert(handle.lowercased())
        }
        let local = ids.filter { Self.server(of: $0) == homeServer }
        var bare = ids.count == 1 ? ids[0] : (local.count == 1 ? local[0] : nil)
        if let id = bare {
            handlesTried += 1
            // Another group's member may hold it (a qualified `kim.a.org` before `@kim.a.org:c.org`).
            if isTaken(Self.baseHandle(of: id), outside: group, or: taken) { bare = nil } else { give(Self.baseHandle(of: id), to: id) }
        }
        let stems = Dictionary(uniqueKeysWithValues: ids.lazy.filter { $0 != bare }.map { id in
            (id, Self.clip(Self.baseHandle(of: id) + "." + Self.handleBase(Self.server(of: id))))
        })
        // Holders first: a handle still of its holder's form (the stem, or the stem numbered) stays.
        var nextNumber: [String: Int] = [:]
        for id in ids {
            guard let stem = stems[id], let old = handles[id], let number = Self.number(of: old, stem: stem) else { continue }
            handlesTried += 1
            // Held, it stays even where another group's bare base is the same (that group came later).
            if isTaken(old, outside: group, or: taken, reservingBases: false) { continue }
            give(old, to: id)
            nextNumber[stem] = max(nextNumber[stem] ?? 1, number + 1)
        }
        for id in ids where assigned[id] == nil {
            guard let stem = stems[id] else { continue }
            var number = nextNumber[stem] ?? 1
            var handle = number == 1 ? stem : Self.numbered(stem, number)
            handlesTried += 1
            while isTaken(handle, outside: group, or: taken) {
                number += 1
                handle = Self.numbered(stem, number)
                handlesTried += 1
            }
            nextNumber[stem] = number + 1
            give(handle, to: id)
        }
        var changed: [String] = []
        for id in ids {
            guard let handle = assigned[id] else { continue }
            if handles[id] != handle { changed.append(id) }
            handles[id] = handle
            owners[handle.lowercased()] = id
        }
        return changed
    }

    /// Whether a handle is another group's (held, or its bare base unless `reservingBases` is
    /// false) or already given in this one.
    private func isTaken(_ handle: String, outside group: String, or taken: Set<String>, reservingBases: Bool = true) -> Bool {
        let key = handle.lowercased()
        // This group's own handles were let go before: an owner left is another group's.
        return taken.contains(key) || owners[key] != nil || (reservingBases && key != group && groups[key] != nil)
    }

    /// A user's localpart as a handle (its case kept).
    private static func baseHandle(of id: String) -> String { handleBase(localpart(of: id)) }

    /// 1 when `handle` is `stem`, n when it is `stem-n` (n ≥ 2); nil when it is neither.
    private static func number(of handle: String, stem: String) -> Int? {
        if handle == stem { return 1 }
        guard let dash = handle.lastIndex(of: "-"), let number = Int(handle[handle.index(after: dash)...]), number >= 2,
              numbered(stem, number) == handle else { return nil }
        return number
    }

    /// `stem-n`, the stem shortened so the whole stays a valid handle however big `n` grows.
    private static func numbered(_ stem: String, _ number: Int) -> String {
        let suffix = "-\(number)"
        return String(stem.prefix(max(1, Handle.maximumLength - suffix.count))) + suffix
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

private extension Array where Element == String {
    /// Inserts keeping the array sorted (binary search; one shift).
    mutating func insertSorted(_ element: String) {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < element { low = middle + 1 } else { high = middle }
        }
        insert(element, at: low)
    }
}
