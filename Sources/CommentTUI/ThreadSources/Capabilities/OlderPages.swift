/// A source whose thread reaches back further than it opens with (a room's history, paged).
/// A source without it opens with every comment it has; the app never asks it for more.
public protocol OlderPages: AnyObject {
    /// Whether comments older than the oldest known exist; `loadOlderComments()` asks for them.
    var hasOlderComments: Bool { get }
    /// Asks for a page of older comments; they arrive as `.olderComments` from `takeUpdates()`.
    func loadOlderComments()
}
