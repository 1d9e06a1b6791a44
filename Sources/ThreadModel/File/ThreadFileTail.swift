/// A thread file being followed: each look reads only the bytes appended since the last one.
///
/// It follows one file (the one open at `identity`), whatever its name comes to name later; the
/// caller compares that with the path's to notice a replaced file. A file cut by someone else
/// (shorter than what was read, or other bytes where the last line read ended) throws `Cut`:
/// thread files only grow, so what was read no longer describes it.
public final class ThreadFileTail {
    /// The file's path.
    public let path: String
    /// The file followed, as it was when opened.
    public let identity: FileIdentity
    /// Where following stands.
    public private(set) var follower: ThreadFileFollower
    private let descriptor: FileDescriptor
    /// The last bytes read before `follower.offset` (the end of the last complete line): another
    /// program's rewrite that grew past the old end before the look is told by them.
    private var witness: [UInt8] = []

    /// The file was cut or rewritten by someone else: it has to be read again from its start.
    public struct Cut: Error, CustomStringConvertible {
        /// Bytes read before, and the file's size now.
        public let offset: Int, size: Int
        public var description: String {
            size < offset ? "the file shrank from \(offset) to \(size) bytes" : "the bytes already read were rewritten"
        }
    }

    /// Opens `path` for following from where `follower` stands.
    public init(path: String, follower: ThreadFileFollower) throws {
        self.path = path
        self.follower = follower
        descriptor = try FileDescriptor.openForReading(path)
        do {
            identity = try descriptor.identity()
            try rememberWitness()
        } catch {
            descriptor.close()
            throw error
        }
    }

    deinit { descriptor.close() }

    /// Bytes read at a time, so a huge append is taken in bounded pieces.
    static let pieceBytes = 1 << 20
    /// How many bytes before the offset are checked at each look.
    static let witnessBytes = 64

    /// Reads what was appended since the last call and decodes its complete lines; throws `Cut`
    /// when the file no longer starts with what was read.
    public func readAppended() throws -> ThreadFileUpdate {
        let size = try descriptor.size()
        guard size >= follower.offset else { throw Cut(offset: follower.offset, size: size) }
        if !witness.isEmpty, try descriptor.read(at: follower.offset - witness.count, count: witness.count) != witness {
            throw Cut(offset: follower.offset, size: size)
        }
        if size < follower.position {
            // Only the unfinished line shrank: its writer took back an append that failed part-way.
            follower.forgetUnfinishedLine()
        }
        var update = ThreadFileUpdate()
        var next = follower.position
        let offset = follower.offset
        while next < size {
            let piece = try descriptor.read(at: next, count: min(Self.pieceBytes, size - next))
            if piece.isEmpty { break }
            let more = follower.ingest(piece)
            update.records += more.records
            update.problems += more.problems
            next += piece.count
        }
        if follower.offset != offset { try rememberWitness() }
        return update
    }

    private func rememberWitness() throws {
        let count = min(Self.witnessBytes, follower.offset)
        witness = try descriptor.read(at: follower.offset - count, count: count)
    }
}
