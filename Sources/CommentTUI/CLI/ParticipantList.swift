import ThreadModel

/// A short, terminal-safe list of a thread's handles for error messages.
enum ParticipantList {
    /// Up to `limit` handles, then how many more.
    static func describe(_ thread: CommentThread, limit: Int = 12) -> String {
        let handles = thread.users.map(\.handle).sorted { $0.lowercased() < $1.lowercased() }
        guard !handles.isEmpty else { return "(nobody yet)" }
        let shown = handles.prefix(limit).map { VisibleText.escape($0) }.joined(separator: ", ")
        return handles.count > limit ? "\(shown) (and \(handles.count - limit) more)" : shown
    }
}
