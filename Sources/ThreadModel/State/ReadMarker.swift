import Foundation

/// How far the reader has read a thread: the newest comment that was on screen.
public struct ReadMarker: Codable, Equatable, Sendable {
    /// The comment's id.
    public var commentID: String
    /// Its position in the thread file's comments (0 = oldest).
    public var position: Int

    public init(commentID: String, position: Int) {
        self.commentID = commentID
        self.position = position
    }

    private enum CodingKeys: String, CodingKey {
        case commentID = "comment"
        case position
    }

    static let suffix = "read.json"

    /// The marker saved for a thread, if one was and it still reads.
    public static func load(_ files: ThreadStateFiles) -> ReadMarker? {
        // A marker that cannot be read (or was planted as a link) is as good as none.
        guard let data = try? files.read(suffix: suffix) else { return nil }
        return try? JSONDecoder().decode(ReadMarker.self, from: data)
    }

    /// Saves the marker (atomically).
    public func save(_ files: ThreadStateFiles) throws {
        try files.write(try JSONEncoder().encode(self), suffix: Self.suffix)
    }
}
