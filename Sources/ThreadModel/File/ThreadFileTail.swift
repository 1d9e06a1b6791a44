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

    /// Bytes read at a time, so a huge append is taken in bounded pieces.
    static let pieceBytes = 1 << 20

    /// Reads what was appended since the last call and decodes its complete lines.
    public func readAppended() throws -> ThreadFileUpdate {
        let size = try descriptor.size()
        if size < follower.position, size >= follower.offset {
            // Only the unfinished line shrank: its writer took back an append that failed part-way.
            follower.forgetUnfinishedLine()
        }
        let position = follower.position
        guard size >= position else {
            // Thread files only ever grow; someone else cut this one. Keep what is on screen.
            throw SystemError("follow (the file shrank from \(position) to \(size) bytes; reopen it)", path: path, code: 0)
        }
        var update = ThreadFileUpdate()
        var next = position
        while next < size {
            let piece = try descriptor.read(at: next, count: min(Self.pieceBytes, size - next))
            if piece.isEmpty { break }
            let more = follower.ingest(piece)
            update.records += more.records
            update.problems += more.problems
            next += piece.count
        }
        return update
    }
}
