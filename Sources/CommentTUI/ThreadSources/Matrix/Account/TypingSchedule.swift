import Foundation

/// When the reader's typing notices go to the room: on at the first keystroke, renewed every
/// `renewal` seconds while keystrokes come, off when the draft is sent or cleared, or once
/// `idle` seconds pass without a keystroke.
///
/// A value fed keystrokes and the time they happened (a `Duration` on any clock); it reads no
/// clock and sends nothing, so its tests move time by hand. `MatrixThreadSource` carries out what
/// it decides, and wakes it at `expiry`.
struct TypingSchedule: Equatable {
    /// A notice to send.
    enum Notice: Equatable {
        case typing
        case stopped
    }

    /// Seconds after a notice that a keystroke sends it again (the server forgets it after 30 s).
    var renewal: Duration = .seconds(20)
    /// Seconds without a keystroke after which the reader stopped typing.
    var idle: Duration = .seconds(30)
    /// When the last `typing` notice went, while the reader counts as typing.
    private(set) var noticeSentAt: Duration?
    private var lastKeystroke: Duration?

    /// A keystroke that leaves text to send: `typing` when a notice is due.
    mutating func keystroke(at now: Duration) -> Notice? {
        lastKeystroke = now
        if let sent = noticeSentAt, now - sent < renewal { return nil }
        noticeSentAt = now
        return .typing
    }

    /// The draft was sent or cleared: `stopped` if the room was told the reader types.
    mutating func stop() -> Notice? {
        lastKeystroke = nil
        guard noticeSentAt != nil else { return nil }
        noticeSentAt = nil
        return .stopped
    }

    /// When the reader stops counting as typing if no keystroke comes; nil while not typing.
    var expiry: Duration? {
        guard noticeSentAt != nil, let lastKeystroke else { return nil }
        return lastKeystroke + idle
    }

    /// Time passed: `stopped` once `idle` went by since the last keystroke.
    mutating func advance(to now: Duration) -> Notice? {
        guard let expiry, now >= expiry else { return nil }
        return stop()
    }
}
