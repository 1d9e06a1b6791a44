import Foundation
import ThreadModel

/// The reactions (`m.reaction` with an `m.annotation` relation) a room's events carry, by the
/// event they annotate, and how they count: each sender once per key, a redacted reaction gone.
///
/// Kept by event id, whether or not their target is loaded: a reaction can come before its
/// comment (in the opening page, the comment in an older one), and counts once it does.
struct MatrixReactions {
    /// One reaction event.
    struct Reaction: Equatable {
        var target: String
        var key: String
        var sender: String
        var at: Date
    }

    /// Keys longer than this (UTF-8 bytes) are not reactions anyone can read: not kept.
    static let longestKey = 256
    /// The most reactions kept on one event: counting them is work done on every change, and a
    /// storm of them from a hostile room stays bounded (those past it are not counted).
    static let mostPerEvent = 2000
    /// The most reactions one sender has kept on one event: a person reacts with a few keys, and
    /// one hostile sender cannot fill an event's bound for everyone else.
    static let mostPerSender = 20

    /// The reader: their reactions are always kept (shown as theirs, and can be taken back).
    let me: String
    private var byEvent: [String: Reaction] = [:]
    /// Reaction event ids by the event they annotate.
    private var byTarget: [String: Set<String>] = [:]
    /// How many reactions each sender has kept on each event (keyed target, NUL, sender).
    private var perSender: [String: Int] = [:]
    /// When each event first got a reaction kept (a running number): the oldest go first when
    /// too many events no comment is known for are kept (`drop(oldestOf:keeping:)`).
    private var firstKept: [String: Int] = [:]
    private var keptSoFar = 0

    init(me: String = "") { self.me = me }

    /// Adds a reaction; false when it was known, its key is not kept or its sender's or its
    /// event's bound is reached (never for ours).
    mutating func add(eventID: String, _ reaction: Reaction) -> Bool {
        guard byEvent[eventID] == nil, !reaction.key.isEmpty, reaction.key.utf8.count <= Self.longestKey else { return false }
        let senderSlot = reaction.target + "\u{0}" + reaction.sender
        if reaction.sender != me {
            guard byTarget[reaction.target, default: []].count < Self.mostPerEvent,
                  perSender[senderSlot, default: 0] < Self.mostPerSender else { return false }
        }
        byEvent[eventID] = reaction
        if byTarget[reaction.target] == nil { firstKept[reaction.target] = keptSoFar; keptSoFar += 1 }
        byTarget[reaction.target, default: []].insert(eventID)
        perSender[senderSlot, default: 0] += 1
        return true
    }

    /// Removes a reaction (it was redacted); the event it annotated, if it was one.
    mutating func remove(eventID: String) -> String? {
        guard let reaction = byEvent.removeValue(forKey: eventID) else { return nil }
        let senderSlot = reaction.target + "\u{0}" + reaction.sender
        perSender[senderSlot, default: 1] -= 1
        if perSender[senderSlot] == 0 { perSender[senderSlot] = nil }
        byTarget[reaction.target]?.remove(eventID)
        if byTarget[reaction.target]?.isEmpty == true { byTarget[reaction.target] = nil; firstKept[reaction.target] = nil }
        return reaction.target
    }

    /// Drops every reaction to an event (it was deleted, or is dropped as too old).
    mutating func removeAll(target: String) {
        for id in byTarget.removeValue(forKey: target) ?? [] {
            if let reaction = byEvent.removeValue(forKey: id) { perSender[reaction.target + "\u{0}" + reaction.sender] = nil }
        }
        firstKept[target] = nil
    }

    /// Keeps at most `most` of the `loose` events (no comment is known for them), dropping those
    /// that got their first reaction longest ago: reactions to events that never load (or are
    /// made up by a hostile room) cost bounded memory.
    mutating func drop(oldestOf most: Int, among loose: [String]) {
        guard loose.count > most else { return }
        for target in loose.sorted(by: { firstKept[$0, default: 0] < firstKept[$1, default: 0] }).prefix(loose.count - most) {
            removeAll(target: target)
        }
    }

    /// Whether an event has reactions kept.
    func hasReactions(_ target: String) -> Bool { byTarget[target] != nil }

    /// The events with reactions.
    var targets: Dictionary<String, Set<String>>.Keys { byTarget.keys }

    /// The reactions to an event by key: most people first, then the key reacted with first.
    func counts(of target: String, me: String) -> [ReactionCount] {
        var senders: [String: Set<String>] = [:]
        var first: [String: Date] = [:]
        for id in byTarget[target] ?? [] {
            guard let reaction = byEvent[id] else { continue }
            senders[reaction.key, default: []].insert(reaction.sender)
            first[reaction.key] = min(first[reaction.key] ?? reaction.at, reaction.at)
        }
        return senders.map { ReactionCount(key: $0.key, count: $0.value.count, includesMine: $0.value.contains(me)) }
            .sorted { a, b in
                if a.count != b.count { return a.count > b.count }
                if first[a.key]! != first[b.key]! { return first[a.key]! < first[b.key]! }
                return a.key < b.key
            }
    }

    /// Who reacted to an event with each key, in `counts` order, each key's senders in the
    /// order they reacted.
    func reactors(of target: String) -> [(key: String, senders: [String])] {
        var byKey: [String: [Reaction]] = [:]
        for id in byTarget[target] ?? [] {
            guard let reaction = byEvent[id] else { continue }
            byKey[reaction.key, default: []].append(reaction)
        }
        return counts(of: target, me: "").map { count in
            let people = (byKey[count.key] ?? []).sorted { $0.at != $1.at ? $0.at < $1.at : $0.sender < $1.sender }
            var seen = Set<String>()
            return (count.key, people.map(\.sender).filter { seen.insert($0).inserted })
        }
    }

    /// The reactions to these events, by reaction event id (what the offline copy keeps).
    func reactions(to events: Set<String>) -> [(eventID: String, reaction: Reaction)] {
        events.flatMap { target in (byTarget[target] ?? []).compactMap { id in byEvent[id].map { (id, $0) } } }
            .sorted { $0.eventID < $1.eventID }
    }

    /// The event id of a sender's reaction with a key to an event (ours, to take it back).
    func event(target: String, key: String, sender: String) -> String? {
        byTarget[target]?.first { byEvent[$0]?.key == key && byEvent[$0]?.sender == sender }
    }
}
