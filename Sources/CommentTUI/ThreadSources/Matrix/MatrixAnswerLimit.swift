import Foundation

/// How many bytes of a homeserver's answer a request reads before it gives up.
///
/// A homeserver can send an endless or a huge body; no answer the client uses comes near these,
/// so each request fails past its limit rather than growing the client without bound.
public enum MatrixAnswerLimit {
    /// Login, discovery and who-am-i: a few hundred bytes in practice.
    public static let small = 64 << 10
    /// Sends, joins, single events and state: one event is at most 64 KiB.
    public static let standard = 1 << 20
    /// Sync, pages of history and whole room state, which grow with the room: generous.
    public static let large = 96 << 20

    /// `64 KiB`, `1 MiB`: a limit as the messages give it.
    static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }

    /// `20 s`, `1.5 s`: a deadline as the messages give it.
    static func describe(seconds: TimeInterval) -> String {
        seconds.rounded() == seconds ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
    }

    /// The API call a request makes, for messages: `login`, `account/whoami`, `rooms/…/messages`.
    static func requestName(_ path: String) -> String {
        for prefix in ["/_matrix/client/v3/", "/_matrix/client/", "/_matrix/"] where path.hasPrefix(prefix) {
            let parts = path.dropFirst(prefix.count).split(separator: "/")
            // Room ids and event ids are the person's data, not the call's name.
            if parts.first == "rooms", parts.count >= 3 { return "rooms/…/" + parts[2] }
            let named = parts.prefix(2).prefix { !"@!#$%".contains($0.first ?? "@") }
            return named.isEmpty ? "the request" : named.joined(separator: "/")
        }
        return path.isEmpty ? "the request" : VisibleText.escape(String(path.prefix(80)))
    }
}
