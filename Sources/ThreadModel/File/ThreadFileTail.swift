/// A thread file being followed: each look reads only the bytes appended since the last one.
public final class ThreadFileTail {
    /// The file's path.
    public let path: String
    /// Where following stands.
    public private(set) var follower: ThreadFileFollower
    private let descriptor: FileDescriptor

    /// Opens `path` for following from where `follower` stands.
    public init(path: String, follower: ThreadFileFollower) throws {
        self.path = path
        self.follower = follower
        descriptor = try FileDescriptor.openForReading(path)
    }

    deinit { descriptor.close() }

    /// Reads what was appended since the last call and decodes its complete lines.
    public func readAppended() throws -> ThreadFileUpdate {
        let position = follower.offset + follower.pendingByteCount
        let size = try descriptor.size()
        guard size >= position else {
            // Thread files only ever grow; someone else cut this one. Keep what is on screen.
            throw SystemError("follow (the file shrank from \(position) to \(size) bytes; reopen it)", path: path, code: 0)
        }
        guard size > position else { return ThreadFileUpdate() }
        return follower.ingest(try descriptor.read(from: position))
    }
}
