import Foundation

/// A source that may open before it has heard everything written so far (a room opened from its
/// offline copy, until its first sync): comments written before the opening may still arrive.
public protocol CatchingUp: AnyObject {
    /// Whether comments written before this opening may still come: they are unread after a
    /// marker on the newest comment, until `.caughtUp`.
    var isCatchingUp: Bool { get }
    /// When the source opened: comments written before it that arrive as new (the catch-up) ring
    /// no bell and raise no notification. Nil: every arrival is live.
    var openedAt: Date? { get }
}
