import Foundation

/// A thread as read from a file, with every problem found on the way.
public struct ThreadFile: Sendable {
    /// The thread: header, users and comments that read well.
    public var thread: CommentThread
    /// Problems, in line order; the records around them are kept.
    public var problems: [ThreadFileProblem]
    /// How many records were read.
    public var recordCount: Int
    /// How many complete (newline-terminated) lines the file has.
    public var lineCount: Int
    /// Bytes after the last newline: an append in progress, not a record yet.
    public var pendingBytes: Int

    public init(thread: CommentThread, problems: [ThreadFileProblem], recordCount: Int, lineCount: Int, pendingBytes: Int) {
        self.thread = thread
        self.problems = problems
        self.recordCount = recordCount
        self.lineCount = lineCount
        self.pendingBytes = pendingBytes
    }

    /// Reads a thread file from disk (a regular file only; lines over the limit are skipped and reported).
    public static func read(path: String) throws -> ThreadFile {
        try readFollowing(path: path).file
    }

    /// Reads a thread file and returns a follower positioned after its last complete line.
    static func readFollowing(path: String) throws -> (file: ThreadFile, follower: ThreadFileFollower) {
        let descriptor = try FileDescriptor.openForReading(path)
        defer { descriptor.close() }
        return try ThreadFileReader().read(from: descriptor)
    }
}
