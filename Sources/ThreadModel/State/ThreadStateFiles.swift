import Foundation

/// Where the client keeps what it knows about a thread file besides the file itself (read
/// marker, draft): `$XDG_DATA_HOME/comment-tui/state/`, else `~/.local/share/comment-tui/state/`,
/// one name per thread file derived from its absolute path.
public struct ThreadStateFiles: Sendable {
    /// The state directory.
    public let directory: String
    /// The name shared by this thread's state files: the file's base name and a hash of its path.
    public let stem: String

    /// The state files of the thread file at `threadPath`; nil when no data directory is known.
    public init?(threadPath: String, environment: [String: String]) {
        let absolute = URL(fileURLWithPath: threadPath).standardizedFileURL.path
        self.init(key: absolute, name: (absolute as NSString).lastPathComponent, environment: environment)
    }

    /// The state files of a thread known by `key` (a room and account), shown as `name`.
    public init?(key: String, name: String, environment: [String: String]) {
        let base: String
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            base = data
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = home + "/.local/share"
        } else {
            return nil
        }
        directory = base + "/comment-tui/state"
        stem = Self.stem(key: key, name: name)
    }

    /// A file name for what is known by `key`: `name` made safe and short, and a hash of the key.
    public static func stem(key: String, name: String) -> String {
        let safe = String(Handle.replacingInvalidCharacters(in: name).prefix(40))
        return "\(safe)-\(hash(key))"
    }

    /// The path of one state file, e.g. `path(for: "read.json")`.
    public func path(for suffix: String) -> String { "\(directory)/\(name(for: suffix))" }

    /// Writes a state file atomically: a temporary file renamed over the old one, so a reader
    /// (or a kill mid-write) sees the old file or the new one, never half of one. Not fsynced.
    ///
    /// Drafts and read markers are the user's own: files 0600 in a 0700 directory, whatever the
    /// umask, and never written through a link someone planted (see `PrivateDirectory`).
    public func write(_ data: Data, suffix: String) throws {
        try PrivateDirectory(directory).replace(name(for: suffix), with: Array(data), synchronized: false)
    }

    /// A state file's bytes; nil when there is none. Throws, naming it, for a file that is not a
    /// regular file of the user's (a planted link is refused, never followed).
    public func read(suffix: String) throws -> Data? {
        guard FileManager.default.fileExists(atPath: directory) else { return nil }
        return try PrivateDirectory(directory).read(name(for: suffix)).map { Data($0) }
    }

    /// Appends to a state file (a log of records), fsynced.
    public func append(_ bytes: [UInt8], suffix: String) throws {
        try PrivateDirectory(directory).append(name(for: suffix), bytes)
    }

    /// Removes a state file; none is not an error.
    public func remove(suffix: String) throws {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        try PrivateDirectory(directory).remove(name(for: suffix))
    }

    /// Renames a state file that no longer reads to a free `….broken-N` name; returns its path.
    public func setAside(suffix: String) throws -> String {
        try PrivateDirectory(directory).setAside(name(for: suffix))
    }

    /// Throws, naming it, when the state directory is there but refused (not the user's, or
    /// writable by others); a directory not made yet is no error.
    public func checkDirectory() throws {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        _ = try PrivateDirectory(directory)
    }

    /// The file name of one state file, e.g. `name(for: "read.json")`.
    func name(for suffix: String) -> String { "\(stem).\(suffix)" }

    /// FNV-1a, 64 bits, in hex: stable across runs and machines (unlike `hashValue`).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
