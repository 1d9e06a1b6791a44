import Foundation
import ThreadModel

/// What home knew of one account's rooms at the last save, and the sync token to resume from:
/// `$XDG_CACHE_HOME/comment-tui/matrix/home-<account>.json` (else `~/.cache/…`), so home shows
/// at once with no request (offline too), then catches up from `nextBatch`.
///
/// JSON with a version, written whole through `PrivateDirectory` (0600, a new file renamed over
/// the old). A file that does not read as this version's cache of this account (malformed,
/// written by another version, another account's, a planted link) is refused with a message
/// saying why; the account then starts from a full sync, and the next save replaces the file.
public struct HomeCache: Sendable {
    /// What a cache holds.
    public struct Snapshot: Equatable, Sendable {
        /// The rooms as they were, to be fed the next sync answers.
        public var rooms: MatrixAccountRooms
        /// Where the next incremental sync starts.
        public var nextBatch: String
        /// The rows home shows from it.
        public var summaries: [ThreadSummary] { rooms.summaries }

        public init(rooms: MatrixAccountRooms, nextBatch: String) {
            self.rooms = rooms
            self.nextBatch = nextBatch
        }
    }

    /// Why a cache file was not used.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The version this client writes and reads; another is refused, never guessed at.
    public static let version = 1
    /// The largest file read: thousands of rooms with their members; a bigger one is no cache of ours.
    public static let largestFile = 64 << 20

    private struct File: Codable {
        var version: Int
        var account: String
        var nextBatch: String
        var rooms: MatrixAccountRooms
        enum CodingKeys: String, CodingKey { case version, account, nextBatch = "next_batch", rooms }
    }

    private struct Version: Decodable { var version: Int?; var account: String? }

    /// The account whose cache this is.
    public let account: String
    /// The folder (a `PrivateDirectory`) and the file's name in it.
    public let directory: String
    public let name: String

    /// The cache file.
    public var path: String { "\(directory)/\(name)" }

    /// The cache of `account` in `$XDG_CACHE_HOME` (else `~/.cache`); nil when neither is set.
    public init?(account: String, environment: [String: String]) {
        guard let directory = MatrixRoomCache.directory(environment: environment) else { return nil }
        self.account = account
        self.directory = directory
        name = "home-\(ThreadStateFiles.stem(key: "matrix-home:\(account)", name: account)).json"
    }

    /// The snapshot saved, nil when there is none; throws a `Refusal` (or the directory's refusal,
    /// naming it) when the file is there but is not one to use.
    public func load() throws -> Snapshot? {
        guard FileManager.default.fileExists(atPath: directory) else { return nil }
        guard let bytes = try PrivateDirectory(directory).read(name) else { return nil }
        guard bytes.count <= Self.largestFile else {
            throw refusal("is \(bytes.count) bytes, more than a home cache can be")
        }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let stamp = try? decoder.decode(Version.self, from: data) else { throw refusal("is not JSON of a home cache") }
        guard let version = stamp.version else { throw refusal("has no version: it is no home cache of comment-tui") }
        guard version == Self.version else {
            throw refusal("is a home cache of version \(version); this comment-tui reads version \(Self.version)")
        }
        guard stamp.account == account else {
            throw refusal("is the home cache of another account, not \(VisibleText.escape(account))")
        }
        guard let file = try? decoder.decode(File.self, from: data), file.rooms.account == account,
              Self.isSyncToken(file.nextBatch) else {
            throw refusal("does not read as a home cache of version \(Self.version)")
        }
        return Snapshot(rooms: file.rooms, nextBatch: file.nextBatch)
    }

    /// Replaces the saved snapshot (atomically). Typing is left out: it is stale by the next start.
    public func save(_ snapshot: Snapshot) throws {
        var rooms = snapshot.rooms
        rooms.forgetTyping()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(File(version: Self.version, account: account, nextBatch: snapshot.nextBatch, rooms: rooms))
        // A copy that can be rebuilt from the server: not fsynced, but never seen half-written.
        try PrivateDirectory(directory).replace(name, with: Array(data), synchronized: false)
    }

    /// Removes the saved snapshot (logging out); none is no error.
    public func remove() throws {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        try PrivateDirectory(directory).remove(name)
    }

    /// A sync token as it may go back to the server: 1 to 4096 bytes of printable ASCII.
    static func isSyncToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 4096 && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    private func refusal(_ why: String) -> Refusal {
        Refusal(description: "\(path) \(why); home starts from the server instead")
    }
}
