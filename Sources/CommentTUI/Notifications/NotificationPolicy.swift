import Foundation
import ScrollEngine

/// What a notification says: the thread's name as its title, who wrote and (for public
/// threads) what, as its body. Not yet made safe for the terminal.
public struct NotificationText: Equatable, Sendable {
    public var title: String
    public var body: String
    public init(title: String, body: String) { self.title = title; self.body = body }
}

/// Whether a comment that arrived raises a desktop notification, and what it says. Pure: time
/// is passed in, so the tests move it.
///
/// A comment notifies when it calls for the reader (a mention) or came to a direct room, and
/// the reader cannot see it arrive: its thread is not on screen, or the terminal is not focused.
/// A thread notifies at most once per `interval`, so a burst of messages is one notification;
/// the first arrival after the terminal lost focus counts even within that time (the reader
/// left after the last one, so it is news again).
public struct NotificationPolicy: Sendable {
    /// The least time between two notifications of one thread.
    public var interval: Double
    /// When each thread last notified.
    private var lastNotified: [ThreadKey: ScrollInstant] = [:]
    /// When the terminal last lost focus, while it has not got it back.
    private var focusLostAt: ScrollInstant?

    /// Five seconds: a burst of messages in a lively room is one notification, and a reply a
    /// minute later is news again.
    public static let defaultInterval = 5.0

    /// The longest text a notification carries of a comment, in characters: a notification is a
    /// glance, and the escape that carries it is bounded anyway.
    public static let textLimit = 120

    public init(interval: Double = defaultInterval) { self.interval = interval }

    /// Takes a focus report from the terminal.
    public mutating func terminalFocusChanged(_ focused: Bool, at time: ScrollInstant) {
        focusLostAt = focused ? nil : (focusLostAt ?? time)
    }

    /// Decides on `arrival` at `time`: what to show, or nil for nothing. A notification decided
    /// here counts against its thread's interval.
    public mutating func decide(_ arrival: NotificationArrival, at time: ScrollInstant) -> NotificationText? {
        guard arrival.callsForReader || arrival.isDirect else { return nil }
        guard !arrival.isOnScreen || !arrival.terminalFocused else { return nil }
        if let last = lastNotified[arrival.thread], time.seconds - last.seconds < interval {
            // Within the interval, only if the terminal lost focus since that notification.
            guard !arrival.terminalFocused, let lost = focusLostAt, lost > last else { return nil }
        }
        lastNotified[arrival.thread] = time
        return Self.words(for: arrival)
    }

    /// The title and body: the author and the text for a public thread; never the text of a
    /// private or encrypted one, nor of one that cannot be read.
    static func words(for arrival: NotificationArrival) -> NotificationText {
        let author = arrival.authorName
        let body: String
        if !arrival.isPrivate, let text = arrival.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
            let shown = text.count > textLimit ? String(text.prefix(textLimit - 1)) + "…" : text
            body = "\(author): \(shown)"
        } else if arrival.callsForReader {
            body = "\(author) mentioned you"
        } else {
            body = "new message from \(author)"
        }
        return NotificationText(title: arrival.threadName, body: body)
    }
}
