import Foundation

/// The unsent draft of a thread, kept beside its read marker in the state directory
/// (`<stem>.draft.json`), so a restart, a crash or a kill does not lose what was written.
///
/// Writes are atomic (a temporary file renamed over the old one): a kill or a full disk during a
/// save leaves the previous draft whole. A draft that no longer reads is moved aside, never
/// overwritten.
public struct DraftFile: Sendable {
    /// The state files of the thread.
    public let files: ThreadStateFiles
    static let suffix = "draft.json"

    /// The draft file of a thread's state files.
    public init(_ files: ThreadStateFiles) {
        self.files = files
    }

    /// Where the draft is stored.
    public var path: String { files.path(for: Self.suffix) }

    /// The saved bytes; nil when there is no draft. Throws, naming the file, when it is not a
    /// regular file of the user's (a planted link is refused, never followed).
    public func load() throws -> Data? {
        try files.read(suffix: Self.suffix)
    }

    /// Saves the bytes atomically.
    public func save(_ data: Data) throws {
        try files.write(data, suffix: Self.suffix)
    }

    /// Deletes the draft (after it was sent); no draft is not an error.
    public func remove() throws {
        try files.remove(suffix: Self.suffix)
    }

    /// Renames an unreadable draft to a free `….broken-N` name, so the next save cannot
    /// overwrite it, private to the user as drafts are; returns the new path.
    public func setAside() throws -> String {
        try files.setAside(suffix: Self.suffix)
    }
}
