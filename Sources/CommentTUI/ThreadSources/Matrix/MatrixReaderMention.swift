import Foundation
import ThreadModel

/// Whether a room message calls for the reader, as Matrix's push rules decide it: the event's
/// `m.mentions` names them (`.m.rule.is_user_mention`), or says `room` and the sender may notify
/// the room (`.m.rule.is_room_mention`, `notifications.room` in the power levels, 50 by default).
/// An event without `m.mentions` (an older client) calls for the reader when its plain body has
/// their display name as a word (`.m.rule.contains_display_name`) or `@room` from a sender who
/// may. With `m.mentions` present those legacy rules do not apply (Matrix 1.7).
///
/// A pill in `formatted_body` is checked by the app itself, from the comment's mentions.
struct MatrixReaderMention {
    /// The reader's user id.
    var me: String
    /// The room's power: its `m.room.power_levels` content and its creators, once known.
    var power: Power?

    /// Who may do what in a room, as far as notifying it goes.
    struct Power {
        /// The `m.room.power_levels` content (nil: the room has none, so the defaults hold).
        var levels: JSONValue?
        /// Creators of a room version 12 or later: their power is above any level, and they are
        /// not listed in `users` (MSC4289).
        var creators: Set<String>
        /// Who created the room: the one at 100 while the room has no power levels.
        var creator: String?

        /// The power of a room with these power levels and create event.
        init(levels: JSONValue?, create: JSONValue?) {
            self.levels = levels
            creators = Self.creators(ofCreate: create)
            creator = create?["sender"]?.string ?? create?["content"]?["creator"]?.string
        }

        /// The creators with that power, from the room's create event.
        static func creators(ofCreate event: JSONValue?) -> Set<String> {
            guard let event, let sender = event["sender"]?.string else { return [] }
            let version = event["content"]?["room_version"]?.string ?? "1"
            guard (Int(version) ?? 0) >= 12 || version.hasPrefix("org.matrix.hydra") else { return [] }
            return Set([sender] + (event["content"]?["additional_creators"]?.array ?? []).compactMap(\.string))
        }
    }

    /// Keeps the newest power levels among state events (a sync's state block or timeline).
    mutating func applyState(_ events: [JSONValue]) {
        for event in events where event["type"]?.string == "m.room.power_levels" && event["state_key"]?.string == "" {
            if let content = event["content"], content.object != nil, power != nil { power?.levels = content }
        }
    }

    /// Whether `event` (someone else's message) calls for the reader, whose display name is `name`.
    /// `fetch` is asked for the room's power only when an `@room` needs it and it is not known yet.
    func callsForReader(_ event: JSONValue, name: String?, power fetch: () -> Power?) -> Bool {
        guard event["type"]?.string == "m.room.message", let sender = event["sender"]?.string, sender != me,
              let content = event["content"] else { return false }
        // An edit is no new message (`.m.rule.suppress_edits`).
        if content["m.relates_to"]?["rel_type"]?.string == "m.replace" { return false }
        func levels() -> Power? { power ?? fetch() }
        if let mentions = content["m.mentions"], mentions.object != nil {
            if (mentions["user_ids"]?.array ?? []).contains(where: { $0.string == me }) { return true }
            return mentions["room"]?.bool == true && Self.mayNotifyRoom(sender, levels())
        }
        guard let body = content["body"]?.string else { return false }
        // A name of one letter, or blanks, would ring for every message.
        if let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), name.count >= 2, Self.containsWord(name, in: body) { return true }
        return Self.containsWord("@room", in: body) && Self.mayNotifyRoom(sender, levels())
    }

    /// Whether the sender's power level reaches `notifications.room` (50 when unset or unknown).
    /// Without power levels the room's creator has 100 and everyone else 0.
    static func mayNotifyRoom(_ sender: String, _ power: Power?) -> Bool {
        if power?.creators.contains(sender) == true { return true }
        guard let power else { return false }
        guard let levels = power.levels else { return sender == power.creator }
        let required = level(levels["notifications"]?["room"]) ?? 50
        let level = level(levels["users"]?[sender]) ?? level(levels["users_default"]) ?? 0
        return level >= required
    }

    /// A power level: a number, or (in rooms from before room version 10) a string of one.
    static func level(_ value: JSONValue?) -> Int? {
        value?.int ?? value?.string.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// Whether `word` occurs in `text`, case-insensitively, not inside a longer word.
    static func containsWord(_ word: String, in text: String) -> Bool {
        let text = text.lowercased(), word = word.lowercased()
        var from = text.startIndex
        while let found = text.range(of: word, range: from..<text.endIndex) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !isWordCharacter(before), !isWordCharacter(after) { return true }
            from = text.index(after: found.lowerBound)
        }
        return false
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
