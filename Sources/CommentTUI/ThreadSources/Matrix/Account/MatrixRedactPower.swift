import Foundation
import ThreadModel

/// Who may redact others' events in a room, as its `m.room.power_levels` says: what home needs
/// to honour a redaction of a marked post's root (`MatrixAccountRoom+MarkedPosts`) sent by
/// someone else. Kept small for the home cache: the users at or above the `redact` level, at
/// most `limit` of them (a hostile room's thousands are not kept: those past it are not
/// honoured, and their redaction shows when the post is opened).
///
/// Room version 12's creators (above any level, not listed) are not known here: the create
/// event is not among the state home syncs; their redaction of another's root is not honoured.
struct MatrixRedactPower: Codable, Equatable, Sendable {
    /// Users whose level reaches `redact`.
    var redactors: Set<String>
    /// Whether `users_default` reaches it: anyone may.
    var everyone: Bool

    static let limit = 64

    /// From a power levels event's content (the spec's defaults where a level is missing:
    /// `redact` 50, `users_default` 0).
    init(levels: JSONValue) {
        let redact = MatrixReaderMention.level(levels["redact"]) ?? 50
        everyone = (MatrixReaderMention.level(levels["users_default"]) ?? 0) >= redact
        var redactors: Set<String> = []
        for (user, level) in levels["users"]?.object ?? [:] where redactors.count < Self.limit {
            if MatrixGrammar.isUserID(user), (MatrixReaderMention.level(level) ?? 0) >= redact { redactors.insert(user) }
        }
        self.redactors = redactors
    }

    /// Whether `user` may redact others' events.
    func mayRedact(_ user: String) -> Bool { everyone || redactors.contains(user) }
}
