/// A source that may report comments missing between those it knows (`.gap`: a server skipped
/// them while the reader was away), and fetches them on request.
public protocol GapFilling: AnyObject {
    /// Asks for comments missing at a gap the source reported (`.gap`); they arrive as `.gapFilled`.
    func fillGap(_ id: String)
}
