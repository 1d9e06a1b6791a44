/// Whether a thread file holds its thread record, asked by a writer under the append lock.
///
/// A file cut to empty (or holding only garbage) has none: a comment appended to it would make
/// a "thread" of comments with no title, post or author, which no reader opens as the thread
/// it was. Readers take the first thread record on any line; `new` writes it as the first,
/// so one line is read in the usual case, and the whole file only when that line is another.
enum ThreadRecordPresence {
    /// Bytes read at a time while looking for the first line's end.
    static let firstChunk = 4 << 10

    /// Whether `file` (open and locked) holds a thread record on a complete line.
    static func check(_ file: FileDescriptor) throws -> Bool {
        let decoder = ThreadRecordDecoder()
        if let line = try firstLine(of: file), case .record(.thread) = decoder.decode(line) { return true }
        try file.seek(to: 0)
        var found = false
        let prefix = ThreadIndexScan.commentPrefix
        _ = try LineScanner.scan(file, chunkSize: ThreadIndexScan.chunkSize) { line, _ in
            guard !found, case .complete(let bytes) = line, !bytes.isEmpty,
                  !ThreadIndexScan.isCanonicalComment(bytes, prefix: prefix) else { return }
            if case .record(.thread) = decoder.decode(ArraySlice(bytes)) { found = true }
        }
        return found
    }

    /// The file's first line without its newline; nil when there is no complete one within
    /// the line limit (an empty file, a torn line, an endless one).
    private static func firstLine(of file: FileDescriptor) throws -> ArraySlice<UInt8>? {
        var bytes: [UInt8] = []
        var chunk = firstChunk
        while bytes.count <= ThreadFileLimits.lineBytes {
            let more = try file.read(at: bytes.count, count: chunk)
            if let newline = more.firstIndex(of: 0x0A) { return (bytes + more[..<newline])[...] }
            bytes += more
            if more.count < chunk { return nil }
            chunk *= 2
        }
        return nil
    }
}

/// An append refused: the thread file has no thread record (`ThreadRecordPresence`).
public struct NoThreadRecord: Error, CustomStringConvertible, Sendable {
    /// The thread file, as given.
    public var path: String

    public var description: String {
        "\(path) has no thread record (it is empty, cut short or not a thread file): nothing was appended"
    }
}
