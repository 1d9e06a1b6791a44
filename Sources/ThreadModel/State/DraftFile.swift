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

    /// The saved bytes; nil when there is no draft.
    public func load() throws -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Saves the bytes atomically.
    public func save(_ data: Data) throws {
        try files.write(data, suffix: Self.suffix)
    }

    /// Deletes the draft (after it was sent); no draft is not an error.
    public func remove() throws {
        try FileSystem.remove(path)
    }

    /// Renames an unreadable draft to a free `….broken-N` name, so the next save cannot
    /// overwrite it, private to the user as drafts are; returns the new path.
    public func setAside() throws -> String {
        var n = 1
        while FileManager.default.fileExists(atPath: "\(path).broken-\(n)") { n += 1 }
        let target = "\(path).broken-\(n)"
        try FileSystem.rename(path, to: target)
        try? FileSystem.setMode(target, 0o600)
        return target
    }
}
