import Foundation
import ThreadModel

/// The thread files the person opened before, most recent first, so home lists them:
/// `remembered-threads.json` in the state directory (`$XDG_DATA_HOME/comment-tui/state/`, as
/// `ThreadStateFiles`), read and written through `PrivateDirectory` (0600, replaced whole, never
/// through a planted link).
///
/// A file that does not read (malformed, another version, a link) is refused with a message
/// saying why; `add` then starts a new list rather than keep failing.
public struct RememberedThreads: Sendable {
    /// Why the file was not used.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// How many paths are kept: the oldest go first.
    public static let limit = 200
    /// The version written and read.
    public static let version = 1
    /// The longest path kept (Linux's `PATH_MAX`).
    static let longestPath = 4096
    static let fileName = "remembered-threads.json"

    private struct File: Codable {
        var version: Int
        var paths: [String]
    }

    /// The state directory.
    public let directory: String
    /// How many paths are kept.
    public let limit: Int

    /// The list in the state directory of `environment`; nil when no data directory is known.
    public init?(environment: [String: String], limit: Int = RememberedThreads.limit) {
        guard let files = ThreadStateFiles(key: "remembered", name: "remembered", environment: environment) else { return nil }
        directory = files.directory
        self.limit = limit
    }

    /// The file.
    public var path: String { "\(directory)/\(Self.fileName)" }

    /// The paths, most recently opened first; none when there is no file yet. Throws a `Refusal`
    /// (or the directory's refusal, naming it) when the file is there but does not read.
    public func paths() throws -> [String] {
        guard FileManager.default.fileExists(atPath: directory),
              let bytes = try PrivateDirectory(directory).read(Self.fileName) else { return [] }
        guard bytes.count <= (limit + 1) * (Self.longestPath + 8) else { throw refusal("is larger than such a list can be") }
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)) else { throw refusal("is not JSON of such a list") }
        guard file.version == Self.version else {
            throw refusal("is of version \(file.version); this comment-tui reads version \(Self.version)")
        }
        var seen: Set<String> = []
        // Hand-edited or old: only absolute paths, each once, as many as kept.
        return Array(file.paths.filter { Self.isKeepable($0) && seen.insert($0).inserted }.prefix(limit))
    }

    /// Puts `threadPath` (made absolute) first; the oldest beyond `limit` are dropped. A list that
    /// does not read is started again.
    public func add(_ threadPath: String) throws {
        let absolute = Self.absolute(threadPath)
        guard Self.isKeepable(absolute) else { return }
        let old = (try? paths()) ?? []
        try write([absolute] + old.filter { $0 != absolute })
    }

    /// Removes `threadPath` (made absolute); one not listed is no error.
    public func remove(_ threadPath: String) throws {
        let absolute = Self.absolute(threadPath)
        let old = try paths()
        guard old.contains(absolute) else { return }
        try write(old.filter { $0 != absolute })
    }

    private func write(_ paths: [String]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(File(version: Self.version, paths: Array(paths.prefix(limit))))
        try PrivateDirectory(directory).replace(Self.fileName, with: Array(data), synchronized: false)
    }

    /// `path` absolute and standardized, as `ThreadStateFiles` names a thread file.
    static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }

    private static func isKeepable(_ path: String) -> Bool {
        path.hasPrefix("/") && path.utf8.count <= longestPath && !path.utf8.contains(0)
    }

    private func refusal(_ why: String) -> Refusal {
        Refusal(description: "\(path) \(why); the threads opened before are not listed")
    }
}
